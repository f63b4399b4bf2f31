// babeltrace's own test corpus (tests/data/ctf): every succeed/ trace converts with the
// same events per name as babeltrace2 prints for it; every fail/ trace is rejected with an error
// that names the trace and says what libbabeltrace2 found, keeping the events decoded before.
#include <gtest/gtest.h>

#include "babeltrace_reference.hpp"
#include "collectors/ctf/ctf_source.hpp"
#include "ctf_run.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;

// Normalised: libbabeltrace2 names files by their normalised paths.
const fs::path kCorpus =
    fs::weakly_canonical(fs::path(apcgate::test_paths::testdata_dir()) / "ctf");

// Listed while the test program starts (gtest's parameter generators run then), so a missing
// folder must not throw: it lists nothing, and CorpusIsPresent fails instead.
std::vector<std::string> corpus(const char* part) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = fs::directory_iterator(kCorpus / part, ec);
         !ec && it != fs::directory_iterator(); it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string safe_name(const testing::TestParamInfo<std::string>& info) {
    std::string n = info.param;
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

void expect_ordered(const TraceRun& run) {
    model::Nanos last = 0;
    for (const auto& e : run.events) {
        const model::Nanos ts = model::timestamp_of(e);
        ASSERT_GE(ts, last) << "timestamps go back";
        last = ts;
    }
}

// Converts `input` and compares it with what babeltrace2 prints for it: the same events per
// name, as many discarded events, timestamps in order, and (every event without a dedicated
// mapping is one string annotation on its name's channel) the same annotations per channel as
// events per name. `run` gets the conversion for the caller's own checks; it stays empty when
// babeltrace2 or the conversion failed on the trace (both reported as failures here).
void expect_babeltraces_events(const fs::path& input, std::unique_ptr<TraceRun>& run) {
    const Reference ref = babeltrace_reference(input);
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    ASSERT_FALSE(ref.events.empty());

    auto converted = run_ctf(input);
    ASSERT_TRUE(converted) << converted.error().to_string();
    run = std::move(converted).value();
    const TraceRun& r = *run;
    EXPECT_TRUE(r.report().complete()) << r.report().stop_reason()->to_string();
    EXPECT_EQ(r.event_counts(), ref.events);
    std::uint64_t discarded = 0;
    if (auto it = r.report().kinds().find("(discarded events)"); it != r.report().kinds().end())
        discarded = it->second.read;
    EXPECT_EQ(discarded, ref.discarded_events);
    EXPECT_EQ(r.annotations_per_channel(), ref.events);
    expect_ordered(r);
}

class Succeed : public testing::TestWithParam<std::string> {};

TEST_P(Succeed, SameEventsPerNameAsBabeltrace) {
    const fs::path trace = kCorpus / "succeed" / GetParam();
    if (!babeltrace_available())
        GTEST_SKIP() << "babeltrace2 (Debian package babeltrace2) is not installed";
    std::unique_ptr<TraceRun> run;
    expect_babeltraces_events(trace, run);
    if (run == nullptr) return;  // expect_babeltraces_events reported why
    const TraceRun& r = *run;
    EXPECT_EQ(r.report().bytes_done, r.report().bytes_total);
    EXPECT_GT(r.report().bytes_total, 0U);
    // The capture is valid even without a loss: the discarded-events counter starts at zero.
    EXPECT_FALSE(r.all<model::CounterSample>().empty());
}

// One trace in two directories (what `lttng snapshot record` writes each time, and a copy of a
// trace): babeltrace2 reads the directories of one trace UUID as one trace, dropping a packet it
// already read from the other, so its counts are those of one copy for most traces here.
TEST_P(Succeed, TwoCopiesInOneFolderGiveBabeltracesCounts) {
    if (!babeltrace_available())
        GTEST_SKIP() << "babeltrace2 (Debian package babeltrace2) is not installed";
    const fs::path root = scratch_dir("copies-" + GetParam());
    for (const char* copy : {"a", "b"})
        fs::copy(kCorpus / "succeed" / GetParam(), root / copy, fs::copy_options::recursive);
    std::unique_ptr<TraceRun> run;
    expect_babeltraces_events(root, run);
    if (run == nullptr) return;  // expect_babeltraces_events reported why
    fs::remove_all(root);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Succeed, testing::ValuesIn(corpus("succeed")), safe_name);

class Fail : public testing::TestWithParam<std::string> {};

TEST_P(Fail, RejectedWithAClearErrorKeepingEarlierEvents) {
    const fs::path trace = kCorpus / "fail" / GetParam();
    auto run = run_ctf(trace);
    std::string message;
    std::uint64_t kept = 0;
    if (!run) {
        message = run.error().to_string();
    } else {
        const auto& report = (*run)->report();
        ASSERT_FALSE(report.complete()) << "a fail/ trace was read as complete";
        message = report.stop_reason()->to_string();
        for (const auto& [name, n] : (*run)->event_counts()) kept += n;
    }
    EXPECT_NE(message.find(trace.string()), std::string::npos) << message;
    // What libbabeltrace2 said, or the metadata packet check run before it (with the offset).
    EXPECT_TRUE(message.find("libbabeltrace2") != std::string::npos ||
                message.find("record 'metadata packet header'") != std::string::npos)
        << message;
    if (babeltrace_available()) {
        // As many events as babeltrace2 itself prints before it gives up.
        const Reference ref = babeltrace_reference(trace);
        EXPECT_NE(ref.exit_code, 0);
        std::uint64_t printed = 0;
        for (const auto& [name, n] : ref.events) printed += n;
        EXPECT_EQ(kept, printed) << message;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Fail, testing::ValuesIn(corpus("fail")), safe_name);

// The corpus ships with the repository (tests/data/ctf): both halves must be there and whole.
TEST(CtfCorpus, IsPresent) {
    EXPECT_EQ(corpus("succeed").size(), 8u) << kCorpus;
    EXPECT_EQ(corpus("fail").size(), 11u) << kCorpus;
}

TEST(CtfCorpus, MetadataErrorsSayWhichLine) {
    auto run = run_ctf(kCorpus / "fail/metadata-syntax-error");
    ASSERT_FALSE(run);
    const std::string m = run.error().to_string();
    EXPECT_NE(m.find("At line 3 in metadata stream: syntax error"), std::string::npos) << m;
    EXPECT_EQ(run.error().record, "CTF trace");
}

TEST(CtfCorpus, DecodeErrorNamesTheStreamFileAndKeepsTheEventsBeforeIt) {
    const fs::path trace = kCorpus / "fail/valid-events-then-invalid-events";
    auto run = run_ctf(trace);
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    ASSERT_TRUE(r.report().stop_reason());
    const Error& e = *r.report().stop_reason();
    EXPECT_EQ(e.input, (trace / "trace/dummystream").string());
    EXPECT_EQ(e.record, "CTF data stream");
    EXPECT_NE(e.message.find("No event class with ID"), std::string::npos) << e.to_string();
    EXPECT_EQ(e.message.find("-addr=0x"), std::string::npos) << "object addresses left in";
    EXPECT_EQ(r.texts("gadoua"), (std::vector<std::string>{"gadoua", "gadoua"}));
}

TEST(CtfCorpus, ABadTraceBesideGoodOnesIsReportedAndTheOthersConverted) {
    const fs::path root = scratch_dir("mixed");
    fs::create_directory_symlink(kCorpus / "succeed/wk-heartbeat-u",
                                 root / "good");  // not followed
    fs::copy(kCorpus / "succeed/wk-heartbeat-u", root / "a-good", fs::copy_options::recursive);
    fs::copy(kCorpus / "fail/fail2", root / "b-bad", fs::copy_options::recursive);
    auto run = run_ctf(root);
    ASSERT_TRUE(run) << run.error().to_string();
    const auto& report = (*run)->report();
    ASSERT_FALSE(report.complete());
    EXPECT_NE(report.stop_reason()->to_string().find("b-bad"), std::string::npos);
    EXPECT_EQ((*run)->event_counts().at("heartbeat:msg"), 20U);
    fs::remove_all(root);
}

TEST(CtfCorpus, DiscardedEventsAreCountedAndShown) {
    auto run = run_ctf(kCorpus / "succeed/multi-domains");
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    EXPECT_EQ(r.report().kinds().at("(discarded events)").read, 728U);
    EXPECT_EQ(r.counter_totals().at("CTF_discarded_events"), 728);
    bool marker = false;
    for (const auto& a : r.all<model::Annotation>())
        if (const auto* m = std::get_if<model::MarkerAnnotation>(&a.body))
            marker = marker || m->text.find("discarded 728 events") != std::string::npos;
    EXPECT_TRUE(marker);
}

TEST(CtfCorpus, UserSpaceEventsAreGroupedPerProcess) {
    auto run = run_ctf(kCorpus / "succeed/wk-heartbeat-u");
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    std::vector<std::string> groups;
    for (const auto& a : r.all<model::Annotation>())
        if (const auto* g = std::get_if<model::GroupName>(&a.body)) groups.push_back(g->name);
    ASSERT_EQ(groups.size(), 1U);
    EXPECT_EQ(groups[0], "wk-heartbeat (pid 3208)");
    const auto texts = r.texts("heartbeat:msg");
    ASSERT_EQ(texts.size(), 20U);
    EXPECT_EQ(texts[0], "heartbeat:msg msg=\"heartbeat\"");
    // The procname and vtid contexts name the thread.
    const auto names = r.all<model::ThreadName>();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names[0].tid, 3214);
    EXPECT_EQ(names[0].name, "wk-heartbeat");
    const auto comms = r.all<model::ProcComm>();
    ASSERT_FALSE(comms.empty());
    EXPECT_EQ(comms[0].pid, 3208);
    // Cores come from the packet context's cpu_id; the clock's offset puts the events in 2012.
    for (const auto& a : r.all<model::Annotation>())
        if (std::holds_alternative<model::StringAnnotation>(a.body)) {
            EXPECT_GE(a.core, 0);
        }
    EXPECT_EQ(r.target.name, "wk-heartbeat-u");  // no hostname in its environment
    EXPECT_GT(r.source->time_origin(), 1351532897LL * 1'000'000'000);
}

TEST(CtfCorpus, EventsWithoutAClockStayInOrder) {
    auto run = run_ctf(kCorpus / "succeed/succeed1");
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    EXPECT_EQ(r.source->time_origin(), 0);
    const auto texts = r.texts("string");
    ASSERT_EQ(texts.size(), 7809U);
    EXPECT_NE(std::find(texts.begin(), texts.end(), "string str=\"xulrunner-1.9.1\""), texts.end());
    expect_ordered(r);
}

TEST(CtfCorpus, StartingAgainReadsTheTraceAfresh) {
    auto once = run_ctf(kCorpus / "succeed/multi-domains", 1);
    auto twice = run_ctf(kCorpus / "succeed/multi-domains", 2);
    ASSERT_TRUE(once && twice);
    EXPECT_EQ((*once)->events.size(), (*twice)->events.size());
    EXPECT_EQ((*once)->annotations_per_channel(), (*twice)->annotations_per_channel());
}

}  // namespace
}  // namespace apcgate::ctf_test
