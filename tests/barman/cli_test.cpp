// The Barman ingester through the real binary: `convert` on bad and damaged dumps (exit codes,
// the capture still written, the problem named with its offset), and `serve --source
// barman:PATH` streaming a dump to a host client, re-reading it when a debugger rewrote it
// between captures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "collectors/barman/barman_source.hpp"
#include "protocol/apc/encoder_statistics.hpp"
#include "protocol/wire/byte_text.hpp"
#include "serve_fixture.hpp"
#include "statistic_value.hpp"
#include "store_builder.hpp"
#include "test_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::barman_test {
namespace {

using e2e::run_apcgate;

const std::string kDir = std::string(apcgate::test_paths::testdata_dir()) + "/barman/";

std::vector<std::uint8_t> slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(wire::text_of(bytes).data(), static_cast<std::streamsize>(bytes.size()));
}

nlohmann::json json_in(const std::string& output) {
    const auto a = output.find('{'), b = output.rfind('}');
    if (a == std::string::npos || b == std::string::npos) return {};
    return nlohmann::json::parse(output.substr(a, b - a + 1), nullptr, false);
}

TEST(BarmanConvert, UnknownMagicIsAClearError) {
    const TestDir scratch("barman_magic");
    const auto& dir = scratch.path();
    std::vector<std::uint8_t> bytes(512, 0);
    const std::string junk = "BARMAN99 not a data store";
    std::copy(junk.begin(), junk.end(), bytes.begin());
    spit(dir / "junk.raw", bytes);
    const auto [rc, out] = run_apcgate({"convert", (dir / "junk.raw").string(), "--format",
                                        "barman", "-o", (dir / "o.apc").string()});
    EXPECT_EQ(rc, 3) << out;
    EXPECT_NE(out.find("unknown magic 42 41 52 4d 41 4e 39 39 (\"BARMAN99\")"), std::string::npos)
        << out;
    // Without --format it is not recognised as Barman at all.
    const auto [rc2, out2] =
        run_apcgate({"convert", (dir / "junk.raw").string(), "-o", (dir / "o2.apc").string()});
    EXPECT_EQ(rc2, 3) << out2;
    EXPECT_FALSE(std::filesystem::exists(dir / "o2.apc"));
}

// --format takes the names of the registered formats (daemon/capture/ingest_registry.cpp) and
// nothing else: a usage error that lists them.
TEST(ConvertCommandLine, FormatIsOneOfTheRegisteredFormats) {
    const TestDir scratch("convert_format");
    const auto& dir = scratch.path();
    spit(dir / "x.raw", std::vector<std::uint8_t>(64, 0));
    const auto [rc, out] = run_apcgate({"convert", (dir / "x.raw").string(), "--format", "perfetto",
                                        "-o", (dir / "o.apc").string()});
    EXPECT_EQ(rc, 2) << out;
    for (const char* name : {"barman", "xray", "fxt", "ctf"})
        EXPECT_NE(out.find(name), std::string::npos) << name << " missing from: " << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "o.apc"));
}

TEST(BarmanConvert, TruncatedDumpKeepsDecodedRecordsAndExitsThree) {
    const TestDir scratch("barman_truncated");
    const auto& dir = scratch.path();
    auto bytes = slurp(kDir + "barman64le_linear.raw");
    bytes.resize(1744 + 10000);  // the header and the first ~10 KB of records
    spit(dir / "cut.raw", bytes);
    const auto out_dir = dir / "cut.apc";
    const auto [rc, out] =
        run_apcgate({"convert", (dir / "cut.raw").string(), "-o", out_dir.string(), "--json"});
    EXPECT_EQ(rc, 3) << out;
    const auto j = json_in(out);
    ASSERT_TRUE(j.is_object()) << out;
    const auto& input = j["inputs"][0];
    EXPECT_FALSE(input["complete"].get<bool>());
    ASSERT_TRUE(input.contains("stopped")) << out;
    EXPECT_GE(input["stopped"]["offset"].get<std::uint64_t>(), 1744U + 9900U);
    EXPECT_EQ(input["stopped"]["record"], "record block");
    EXPECT_EQ(input["stopped"]["kind"], "truncated");  // the file was cut, not corrupted
    EXPECT_GT(input["records"]["counter sample with PC"]["mapped"].get<int>(), 20);
    // What the encoder counted, every statistic of its table with its severity and description.
    const auto& encoder = j["statistics"]["encoder"];
    ASSERT_EQ(encoder.size(), apc::kEncoderStatistics.size()) << out;
    for (std::size_t i = 0; i < apc::kEncoderStatistics.size(); ++i) {
        const model::StatisticSpec& spec = apc::kEncoderStatistics[i];
        EXPECT_EQ(encoder[i]["name"], std::string(spec.name));
        EXPECT_EQ(encoder[i]["severity"], std::string(model::severity_name(spec.severity)));
        EXPECT_EQ(encoder[i]["description"], std::string(spec.description));
    }
    EXPECT_GT(encoder[static_cast<std::size_t>(apc::EncoderStat::Frames)]["value"].get<int>(), 0);

    const auto [irc, inspect] = run_apcgate({"inspect", out_dir.string(), "--json"});
    ASSERT_EQ(irc, 0) << inspect;
    const auto summary = json_in(inspect);
    EXPECT_TRUE(summary["valid"].get<bool>());
    EXPECT_GT(summary["messages"]["Backtrace"].get<int>(), 20) << inspect;
    // The capture keeps what the conversion counted: inspect shows the input's and the
    // encoder's statistics as convert --json printed them, the input's problem among them.
    std::map<std::string, nlohmann::json> recorded;
    for (const auto& part : summary["statistics"]) recorded[part["who"]] = part["statistics"];
    const std::string input_part = "source " + (dir / "cut.raw").string();
    ASSERT_TRUE(recorded.count(input_part)) << summary["statistics"].dump();
    EXPECT_EQ(recorded[input_part], input["statistics"]);
    EXPECT_EQ(recorded["encoder"], encoder);
    const auto [trc, text] = run_apcgate({"inspect", out_dir.string()});
    EXPECT_EQ(trc, 0) << text;
    EXPECT_NE(text.find(input_part + ": problems = 1 (error)"), std::string::npos) << text;
}

// A bad record is skipped and the rest converts, but the input was read wrong there: exit 3,
// though reading went on to the end ("complete": true).
TEST(BarmanConvert, BadRecordsAreCountedTheRestConvertedAndTheExitIsThree) {
    StoreConfig c;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU});
    b.sample(0, 10, 1, std::nullopt, {100});
    b.sample(1, 11, 1, std::nullopt, {});  // core 1 has no PMU settings
    b.sample(0, 20, 1, std::nullopt, {300});
    const TestDir scratch("barman_badrec");
    const auto& dir = scratch.path();
    spit(dir / "bad.raw", b.linear(512));
    const auto [rc, out] = run_apcgate(
        {"convert", (dir / "bad.raw").string(), "-o", (dir / "bad.apc").string(), "--json"});
    EXPECT_EQ(rc, 3) << out;
    const auto j = json_in(out);
    EXPECT_TRUE(j["complete"].get<bool>());
    EXPECT_EQ(j["problem_count"], 1);
    const auto& input = j["inputs"][0];
    EXPECT_TRUE(input["complete"].get<bool>());
    EXPECT_EQ(input["records"]["counter sample"]["bad"], 1);
    EXPECT_EQ(input["records"]["counter sample"]["mapped"], 2);
    ASSERT_EQ(input["problems"].size(), 1U);
    EXPECT_NE(input["problems"][0]["message"].get<std::string>().find("no PMU settings"),
              std::string::npos);
    const auto [irc, inspect] = run_apcgate({"inspect", (dir / "bad.apc").string(), "--json"});
    ASSERT_EQ(irc, 0) << inspect;
    const auto summary = json_in(inspect);
    bool found = false;
    for (const auto& counter : summary["counters"]) {
        if (counter["type"] != "ARMv8_Cortex_A53_ccnt") continue;
        found = true;
        EXPECT_EQ(counter["values"], 2);
        EXPECT_EQ(counter["max"], 200);
    }
    EXPECT_TRUE(found) << inspect;
}

// The agent commits records at most a few cores' worth out of timestamp order; a store that
// breaks that (a record far older than ones read a poll before it) cannot go back in time: its
// events are moved up to the latest time already handed on, and the input's statistics say how
// many, as data changed to fit, in --json and in the terminal summary. Not a problem (exit 0).
TEST(BarmanConvert, EventsMovedUpToKeepTimeOrderAreCounted) {
    StoreConfig c;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU});
    // More counter samples (one event each) than one poll hands out, so the late
    // record below comes after a poll has promised a later time.
    constexpr std::uint64_t kSamples = collectors::barman::BarmanSource::kMaxEventsPerPoll + 5000;
    for (std::uint64_t i = 0; i < kSamples; ++i) b.sample(0, 1000 + i * 10, 1, std::nullopt, {i});
    b.sample(0, 500, 1, std::nullopt, {kSamples});  // older than every record before it
    const TestDir scratch("barman_late");
    const auto& dir = scratch.path();
    spit(dir / "late.raw", b.linear((kSamples + 1) * 64));
    const auto [rc, out] = run_apcgate(
        {"convert", (dir / "late.raw").string(), "-o", (dir / "late.apc").string(), "--json"});
    EXPECT_EQ(rc, 0) << out;
    const auto j = json_in(out);
    ASSERT_TRUE(j.is_object()) << out;
    const auto& input = j["inputs"][0];
    EXPECT_EQ(input["problem_count"], 0) << out;
    EXPECT_EQ(input["records"]["counter sample"]["mapped"], kSamples + 1) << out;  // the late too
    EXPECT_EQ(e2e::statistic_value(input["statistics"], "barman_events_moved_up"),
              std::optional<std::uint64_t>(1))
        << input["statistics"].dump(1);
    for (const auto& s : input["statistics"]) {
        if (s["name"] == "barman_events_moved_up") {
            EXPECT_EQ(s["severity"], "data_loss");
        }
    }

    const auto [rc2, text] = run_apcgate(
        {"convert", (dir / "late.raw").string(), "-o", (dir / "late.apc").string(), "-f"});
    EXPECT_EQ(rc2, 0) << text;
    EXPECT_NE(text.find("  barman_events_moved_up = 1 (data_loss): "), std::string::npos) << text;
}

// Issue 27: a flipped byte in the agent's 32-bit big-endian wrapped buffer put a custom
// counter value on core 655,361 of a store of 4 cores (2 of them with PMU settings); convert exited
// 0 with no problem and wrote a capture inspect rejects. Now the record is a bad record naming its
// offset, kind and field (exit 3), and the capture, without it, is valid.
TEST(BarmanConvert, ARecordOnACorePastMaxCoresIsABadRecord) {
    const TestDir scratch("barman_core");
    const auto out_dir = scratch.path() / "core.apc";
    const std::string dump =
        std::string(apcgate::test_paths::testdata_dir()) + "/hostile/barman_flip19_core655361.raw";
    const auto [rc, out] = run_apcgate({"convert", dump, "-o", out_dir.string(), "--json"});
    EXPECT_EQ(rc, 3) << out;
    const auto j = json_in(out);
    ASSERT_TRUE(j.is_object()) << out;
    const auto& input = j["inputs"][0];
    EXPECT_TRUE(input["complete"].get<bool>());
    ASSERT_EQ(input["problems"].size(), 1U) << out;
    const auto& p = input["problems"][0];
    EXPECT_EQ(p["offset"], 2804) << p.dump();  // the core field the flip hit
    EXPECT_EQ(p["record"], "custom counter value") << p.dump();
    EXPECT_EQ(p["field"], "core") << p.dump();
    EXPECT_EQ(p["kind"], "malformed") << p.dump();
    EXPECT_NE(p["message"].get<std::string>().find("core 655361 is not below max_cores 4"),
              std::string::npos)
        << p.dump();
    EXPECT_EQ(input["records"]["custom counter value"]["bad"], 1);
    const auto [irc, inspect] = run_apcgate({"inspect", out_dir.string(), "--json"});
    EXPECT_EQ(irc, 0) << inspect;
    const auto summary = json_in(inspect);
    EXPECT_TRUE(summary["valid"].get<bool>()) << inspect;
    EXPECT_EQ(summary["target"]["cores"], 2);
}

// serve --source: the dump streams as a capture that ends by itself.
class BarmanServeTest : public e2e::ServeTest {
  protected:
    void SetUp() override {}  // started per test with the --source argument
    e2e::CheckedCapture capture_once() {
        e2e::HostClient c = client();
        auto captured_xml = c.request_xml("captured");
        EXPECT_TRUE(captured_xml);
        auto captured = xml::parse_captured(captured_xml ? captured_xml->body : "");
        EXPECT_TRUE(captured);
        if (!captured) return {};
        captured_ = *captured;
        EXPECT_TRUE(c.send_command(e2e::kApcStart));
        const e2e::StreamResult all = e2e::read_stream(c, std::chrono::seconds(20));
        EXPECT_TRUE(all.end_of_sequence);
        EXPECT_TRUE(all.other.empty());
        return e2e::check_capture(all.frames, *captured);
    }
    std::size_t values_of(const e2e::CheckedCapture& checked, const std::string& counter) const {
        for (const auto& k : captured_.counters)
            if (k.type == counter)
                return checked.values_per_key.count(k.key) ? checked.values_per_key.at(k.key) : 0;
        return 0;
    }
    xml::CapturedDoc captured_;
};

TEST_F(BarmanServeTest, StreamsTheDumpAndRereadsItWhenRewritten) {
    const TestDir scratch("barman_serve");
    const auto& dir = scratch.path();
    const auto path = dir / "target.raw";
    std::filesystem::copy_file(kDir + "barman32be_linear.raw", path);
    start({"--source", "barman:" + path.string()});

    const e2e::CheckedCapture first = capture_once();
    for (const auto& e : first.errors) ADD_FAILURE() << e;
    EXPECT_EQ(captured_.info.target.name, "realdata-host");
    EXPECT_EQ(first.thread_names, 4U);
    // 100 samples per core type counter (linear: every read has a delta) on cores 0 and 1.
    EXPECT_EQ(values_of(first, "ARMv8_Cortex_A53_ccnt"), 200U);
    // 100 depth and 100 temperature values; the agent's ids cannot tell a core-0 temperature
    // from a depth (series_resolver.hpp), so those go to depth.
    EXPECT_EQ(values_of(first, "Barman_queue_depth") + values_of(first, "Barman_temp_celsius"),
              200U);
    EXPECT_GT(values_of(first, "Barman_temp_celsius"), 20U);

    // The debugger dumps a newer, wrapped buffer to the same path: the next capture reads it.
    std::filesystem::copy_file(kDir + "barman32be_circular_wrapped.raw", path,
                               std::filesystem::copy_options::overwrite_existing);
    const e2e::CheckedCapture second = capture_once();
    for (const auto& e : second.errors) ADD_FAILURE() << e;
    const std::size_t wrapped = values_of(second, "ARMv8_Cortex_A53_ccnt");
    EXPECT_GT(wrapped, 0U);
    EXPECT_LT(wrapped, 40U);
    expect_serving();
}

}  // namespace
}  // namespace apcgate::barman_test
