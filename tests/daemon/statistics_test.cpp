// The statistics tables (one per collector, and the encoder's) and their one printer: names are
// unique across the program and stable snake_case, every entry has a description, every entry
// reaches the JSON, and a data-loss count reaches both the JSON and the log as a warning with
// its severity and description.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "collectors/annotate/annotate_statistics.hpp"
#include "collectors/barman/barman_statistics.hpp"
#include "collectors/ingest/ingest_statistics.hpp"
#include "collectors/perf/perf_statistics.hpp"
#include "collectors/procfs/procfs_statistics.hpp"
#include "collectors/xray/xray_statistics.hpp"
#include "daemon/analysis/analysis_statistics.hpp"
#include "daemon/capture/capture_engine.hpp"
#include "daemon/capture/convert_report.hpp"
#include "daemon/capture/statistics_output.hpp"
#include "protocol/apc/encoder_statistics.hpp"

namespace apcgate::daemon {
namespace {

using model::Severity;
using model::StatisticSpec;

// Every table in the program.
const std::map<std::string, std::span<const StatisticSpec>>& all_tables() {
    static const std::map<std::string, std::span<const StatisticSpec>> kTables{
        {"perf", collectors::perf::kPerfStatistics},
        {"procfs", collectors::procfs::kProcfsStatistics},
        {"annotate", collectors::annotate::kAnnotateStatistics},
        {"encoder", apc::kEncoderStatistics},
        {"ingest", collectors::ingest::kIngestStatistics},
        {"xray", collectors::xray::kXrayStatistics},
        {"barman", collectors::barman::kBarmanStatistics},
        {"report", analysis::kAnalysisStatistics},
    };
    return kTables;
}

bool snake_case(std::string_view s) {
    if (s.empty() || s.front() == '_' || s.back() == '_') return false;
    for (const char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

TEST(StatisticTables, NamesAreUniqueSnakeCaseAndEveryEntryIsDescribed) {
    std::set<std::string_view> names;
    std::size_t entries = 0;
    for (const auto& [who, table] : all_tables()) {
        EXPECT_FALSE(table.empty()) << who;
        for (const StatisticSpec& s : table) {
            ++entries;
            EXPECT_TRUE(names.insert(s.name).second) << who << ": " << s.name << " twice";
            EXPECT_TRUE(snake_case(s.name)) << who << ": " << s.name;
            EXPECT_GE(s.description.size(), 10U) << who << ": " << s.name;
            EXPECT_NE(s.description.back(), '.') << who << ": " << s.name;  // one style
        }
    }
    EXPECT_EQ(names.size(), entries);
}

TEST(StatisticTables, CountsAreIndexedByTheirEnumInTableOrder) {
    collectors::perf::PerfStatistics p;
    ++p[collectors::perf::PerfStat::RecordsLost];
    p[collectors::perf::PerfStat::RecordBytes] += 7;
    collectors::perf::PerfStatistics q;
    ++q[collectors::perf::PerfStat::RecordsLost];
    p += q;
    EXPECT_EQ(p[collectors::perf::PerfStat::RecordsLost], 2U);
    const auto values = p.values();
    ASSERT_EQ(values.size(), collectors::perf::kPerfStatistics.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i].spec, &collectors::perf::kPerfStatistics[i]);
    EXPECT_EQ(collectors::perf::PerfStatistics::spec(collectors::perf::PerfStat::RecordsLost).name,
              "perf_records_lost");
    EXPECT_EQ(values[static_cast<std::size_t>(collectors::perf::PerfStat::RecordBytes)].value, 7U);
}

TEST(StatisticsOutput, JsonHasEveryEntryOfEveryTableWithItsSeverityAndDescription) {
    for (const auto& [who, table] : all_tables()) {
        std::vector<model::StatisticValue> values;
        for (std::size_t i = 0; i < table.size(); ++i) values.push_back({&table[i], i * 3});
        const nlohmann::json j = statistics_json(values);
        ASSERT_TRUE(j.is_array()) << who;
        ASSERT_EQ(j.size(), table.size()) << who;
        for (std::size_t i = 0; i < table.size(); ++i) {
            EXPECT_EQ(j[i]["name"], std::string(table[i].name)) << who;
            EXPECT_EQ(j[i]["value"], i * 3) << who;
            EXPECT_EQ(j[i]["severity"], std::string(model::severity_name(table[i].severity)))
                << who;
            EXPECT_EQ(j[i]["description"], std::string(table[i].description)) << who;
        }
    }
    EXPECT_EQ(model::severity_name(Severity::Info), "info");
    EXPECT_EQ(model::severity_name(Severity::DataLoss), "data_loss");
    EXPECT_EQ(model::severity_name(Severity::Error), "error");
}

// The daemon's log, captured for one test.
class CapturedLog {
  public:
    CapturedLog() : previous_(spdlog::default_logger()) {
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(text_);
        sink->set_pattern("[%l] %v");
        auto logger = std::make_shared<spdlog::logger>("statistics_test", sink);
        logger->set_level(spdlog::level::debug);
        spdlog::set_default_logger(logger);
    }
    ~CapturedLog() { spdlog::set_default_logger(previous_); }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;
    [[nodiscard]] std::string text() const { return text_.str(); }

  private:
    std::shared_ptr<spdlog::logger> previous_;
    std::ostringstream text_;
};

TEST(StatisticsOutput, TheLogWarnsOfDataLossAndTellsTheRest) {
    namespace pf = collectors::perf;
    pf::PerfStatistics s;
    s[pf::PerfStat::RecordsLost] = 12;
    s[pf::PerfStat::Drains] = 3;
    s[pf::PerfStat::RecordBytes] = 4096;
    std::string log;
    {
        const CapturedLog captured;
        log_statistics("perf", s.values());
        log = captured.text();
    }
    const auto& lost = pf::PerfStatistics::spec(pf::PerfStat::RecordsLost);
    EXPECT_NE(log.find("[warning] perf: perf_records_lost = 12 (data_loss): " +
                       std::string(lost.description) + "\n"),
              std::string::npos)
        << log;
    EXPECT_NE(
        log.find("[info] perf: perf_drains = 3 (info): " +
                 std::string(pf::PerfStatistics::spec(pf::PerfStat::Drains).description) + "\n"),
        std::string::npos)
        << log;
    EXPECT_NE(log.find("[info] perf: perf_record_bytes = 4096 (info): "), std::string::npos) << log;
    // Zero counts stay out of the log.
    EXPECT_EQ(log.find("perf_throttles"), std::string::npos) << log;
    // And out of the terminal text, where only what was lost or wrong is shown.
    const std::string text = statistics_text(s.values());
    EXPECT_EQ(text,
              "  perf_records_lost = 12 (data_loss): " + std::string(lost.description) + "\n");
}

class NullSink final : public CaptureSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes_ += body.size(); }
    void flush() override {}
    void finish() override {}
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes_; }

  private:
    std::uint64_t bytes_ = 0;
};

// Sends a counter sample for a key the capture did not enable (the encoder drops it: data
// lost) and says it failed to read a file twice.
class LossySource final : public collectors::Source {
  public:
    [[nodiscard]] std::string_view name() const override { return "lossy"; }
    Status start(const collectors::CaptureContext&) override { return {}; }
    collectors::PollResult poll(model::Nanos now, std::vector<model::Event>& out) override {
        if (!sent_) out.push_back(model::CounterSample{now, 0, 9999, 1, -1});
        sent_ = true;
        return {now, false};
    }
    [[nodiscard]] std::vector<model::StatisticValue> statistics() const override {
        collectors::procfs::ProcfsStatistics s;
        s[collectors::procfs::ProcfsStat::ReadErrors] = 2;
        return s.values();
    }

  private:
    bool sent_ = false;
};

TEST(StatisticsOutput, ACaptureReportsWhatItsSourcesAndTheEncoderLost) {
    LossySource source;
    NullSink sink;
    CapturePlan plan;
    plan.sources = {&source};
    CaptureEngine engine(std::move(plan), sink);
    ASSERT_TRUE(engine.start());
    engine.poll_due(0);
    engine.finish(1'000'000);
    const auto stats = engine.statistics();
    ASSERT_EQ(stats.size(), 2U);
    EXPECT_EQ(stats[0].who, "lossy");
    EXPECT_EQ(stats[1].who, "encoder");

    const nlohmann::json j = statistics_json(stats[1].values);
    bool found = false;
    for (const auto& s : j) {
        if (s["name"] != "encoder_unknown_key") continue;
        found = true;
        EXPECT_EQ(s["value"], 1U);
        EXPECT_EQ(s["severity"], "data_loss");
    }
    EXPECT_TRUE(found) << j.dump();

    std::string log;
    {
        const CapturedLog captured;
        for (const auto& s : stats) log_statistics(s.who, s.values);
        log = captured.text();
    }
    EXPECT_NE(log.find("[warning] lossy: procfs_read_errors = 2 (data_loss): "), std::string::npos)
        << log;
    EXPECT_NE(log.find("[warning] encoder: encoder_unknown_key = 1 (data_loss): "),
              std::string::npos)
        << log;
}

// A trace input cut short: the bytes after the problem are lost, and `convert --json`, the
// terminal summary and the log all say so with the statistic's severity.
TEST(StatisticsOutput, AnInputsLostBytesReachItsJsonTextAndLog) {
    collectors::ingest::IngestReport r("fxt", "cut.fxt");
    r.bytes_total = 1000;
    r.read("event", 3);
    r.mapped("event", 3);
    r.bytes_done = 250;
    r.stopped(Error::at(ErrorKind::Truncated, "truncated record"));

    const nlohmann::json j = report_json(r);
    bool found = false;
    for (const auto& s : j["statistics"]) {
        if (s["name"] != "bytes_unread") continue;
        found = true;
        EXPECT_EQ(s["value"], 750U);
        EXPECT_EQ(s["severity"], "data_loss");
    }
    EXPECT_TRUE(found) << j.dump();
    EXPECT_EQ(j["statistics"].size(), collectors::ingest::kIngestStatistics.size());
    EXPECT_NE(report_text(r).find("  bytes_unread = 750 (data_loss): "), std::string::npos)
        << report_text(r);

    std::string log;
    {
        const CapturedLog captured;
        log_report(r);
        log = captured.text();
    }
    EXPECT_NE(log.find("[warning] source cut.fxt: bytes_unread = 750 (data_loss): "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("[info] source cut.fxt: records_read = 3 (info): "), std::string::npos)
        << log;
}

// A format's own table, as an ingester declares one.
enum class FormatStat : std::uint8_t { Quirks, Dropped, Count };
constexpr std::array<StatisticSpec, 2> kFormatStatistics{{
    {"test_format_quirks", Severity::Info, "a producer's harmless quirks met"},
    {"test_format_dropped", Severity::DataLoss, "things the format could not show"},
}};
using FormatStatistics = model::Statistics<FormatStat, kFormatStatistics>;

// An ingester's own statistics travel in its IngestReport: added up however often they are
// added, and printed after the input's totals in `convert --json`, the terminal summary (the
// data-loss ones) and the log.
TEST(StatisticsOutput, AFormatsOwnStatisticsFollowTheInputsTotals) {
    collectors::ingest::IngestReport r("test", "in.test");
    r.read("event", 4);
    r.mapped("event", 4);
    const auto& dropped = FormatStatistics::spec(FormatStat::Dropped);
    EXPECT_EQ(r.statistic(dropped), 0U);
    r.add_statistics(FormatStatistics{});  // the whole table, before anything was counted
    FormatStatistics once;
    once[FormatStat::Dropped] = 2;
    once[FormatStat::Quirks] = 1;
    r.add_statistics(once);
    once[FormatStat::Quirks] = 0;
    r.add_statistics(once);
    EXPECT_EQ(r.statistic(dropped), 4U);
    EXPECT_EQ(r.statistic(FormatStatistics::spec(FormatStat::Quirks)), 1U);
    ASSERT_EQ(r.format_statistics().size(), kFormatStatistics.size());

    const nlohmann::json j = report_json(r);
    const std::size_t totals = collectors::ingest::kIngestStatistics.size();
    ASSERT_EQ(j["statistics"].size(), totals + kFormatStatistics.size()) << j.dump();
    EXPECT_EQ(j["statistics"][0]["name"], "records_read");
    EXPECT_EQ(j["statistics"][totals]["name"], "test_format_quirks");
    EXPECT_EQ(j["statistics"][totals]["value"], 1U);
    EXPECT_EQ(j["statistics"][totals]["severity"], "info");
    EXPECT_EQ(j["statistics"][totals + 1]["name"], "test_format_dropped");
    EXPECT_EQ(j["statistics"][totals + 1]["value"], 4U);
    EXPECT_EQ(j["statistics"][totals + 1]["severity"], "data_loss");
    EXPECT_EQ(j["statistics"][totals + 1]["description"], std::string(dropped.description));

    const std::string text = report_text(r);
    EXPECT_NE(text.find("  test_format_dropped = 4 (data_loss): " +
                        std::string(dropped.description) + "\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("test_format_quirks"), std::string::npos) << text;

    std::string log;
    {
        const CapturedLog captured;
        log_report(r);
        log = captured.text();
    }
    EXPECT_NE(log.find("[warning] source in.test: test_format_dropped = 4 (data_loss): "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("[info] source in.test: test_format_quirks = 1 (info): "), std::string::npos)
        << log;
}

}  // namespace
}  // namespace apcgate::daemon
