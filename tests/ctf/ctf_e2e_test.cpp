// End to end through the real binary: `apcgate convert` of CTF traces (babeltrace's corpus and
// LTTng-UST traces this test makes) checked with `apcgate inspect` and by decoding the written
// capture back into events; `apcgate serve --source ctf:PATH` streamed to a host client.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "babeltrace_reference.hpp"
#include "ctf_run.hpp"
#include "daemon_process.hpp"
#include "lttng_session.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "serve_fixture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
using e2e::run_apcgate;

// Normalised: libbabeltrace2 names files by their normalised paths.
const fs::path kCorpus =
    fs::weakly_canonical(fs::path(apcgate::test_paths::testdata_dir()) / "ctf");

// The binary is a cross build under qemu in the aarch64 CI stage: it cannot be exec'd there.
bool binary_runs() {
    static const bool kRuns = run_apcgate({"--version"}).first == 0;
    return kRuns;
}
#define REQUIRE_BINARY() \
    if (!binary_runs()) GTEST_SKIP() << "the apcgate binary cannot be run on this host"

std::vector<model::Event> decode_apc(const fs::path& apc) {
    std::ifstream in(apc / "0000000000", std::ios::binary);
    std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
    const auto decoded = apc::decode_capture(data);
    EXPECT_FALSE(decoded.error) << decoded.error->to_string();
    auto events = apc::rebuild_events(decoded.frames);
    EXPECT_TRUE(events) << events.error().to_string();
    return events ? std::move(*events) : std::vector<model::Event>{};
}

nlohmann::json inspect(const fs::path& apc) {
    auto [rc, out] = run_apcgate({"inspect", apc.string(), "--json"});
    EXPECT_EQ(rc, 0) << out;
    const auto start = out.find('{');
    return start == std::string::npos ? nlohmann::json{}
                                      : nlohmann::json::parse(out.substr(start), nullptr, false);
}

std::int64_t counter_values(const nlohmann::json& summary, const std::string& type) {
    for (const auto& c : summary["counters"])
        if (c["type"] == type) return c["values"].get<std::int64_t>();
    return -1;
}

TEST(CtfConvert, LttngKernelAndUserSpaceSessionConvertsAndInspects) {
    REQUIRE_BINARY();
    const fs::path out = scratch_dir("convert") / "out.apc";
    const fs::path trace = kCorpus / "succeed/multi-domains";  // kernel/ and ust/ below it
    auto [rc, text] = run_apcgate({"convert", trace.string(), "-o", out.string()});
    ASSERT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("(discarded events): 728 read"), std::string::npos) << text;
    const auto summary = inspect(out);
    EXPECT_TRUE(summary["valid"].get<bool>()) << summary.dump(2);
    EXPECT_EQ(summary["target"]["name"], "joraj-alpa");
    EXPECT_GT(counter_values(summary, "CTF_discarded_events"), 1);
    const auto events = decode_apc(out);
    if (babeltrace_available()) {
        EXPECT_EQ(annotations_per_channel(events), babeltrace_reference(trace).events);
    }
    fs::remove_all(out.parent_path());
}

TEST(CtfConvert, MetadataFileWithForcedFormat) {
    REQUIRE_BINARY();
    const fs::path out = scratch_dir("forced") / "out.apc";
    auto [rc, text] =
        run_apcgate({"convert", (kCorpus / "succeed/wk-heartbeat-u/metadata").string(), "--format",
                     "ctf", "-o", out.string()});
    ASSERT_EQ(rc, 0) << text;
    EXPECT_EQ(channel_texts(decode_apc(out), "heartbeat:msg").size(), 20U);
    fs::remove_all(out.parent_path());
}

TEST(CtfConvert, DecodeErrorExitsThreeAndKeepsTheEventsBefore) {
    REQUIRE_BINARY();
    const fs::path out = scratch_dir("partial") / "out.apc";
    const fs::path trace = kCorpus / "fail/valid-events-then-invalid-events";
    auto [rc, text] = run_apcgate({"convert", trace.string(), "-o", out.string()});
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(text.find((trace / "trace/dummystream").string()), std::string::npos) << text;
    EXPECT_NE(text.find("No event class with ID"), std::string::npos) << text;
    EXPECT_TRUE(inspect(out)["valid"].get<bool>());
    EXPECT_EQ(channel_texts(decode_apc(out), "gadoua").size(), 2U);
    fs::remove_all(out.parent_path());
}

TEST(CtfConvert, MetadataErrorIsRejectedClearly) {
    REQUIRE_BINARY();
    const fs::path out = scratch_dir("bad") / "out.apc";
    const fs::path trace = kCorpus / "fail/metadata-syntax-error";
    auto [rc, text] = run_apcgate({"convert", trace.string(), "-o", out.string()});
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(text.find(trace.string()), std::string::npos) << text;
    EXPECT_NE(text.find("At line 3 in metadata stream: syntax error"), std::string::npos) << text;
    fs::remove_all(out.parent_path());
}

class CtfServe : public e2e::ServeTest {
  protected:
    void SetUp() override {}  // started by each test with its --source
};

TEST_F(CtfServe, SourceStreamsTheTraceAsACapture) {
    REQUIRE_BINARY();
    const fs::path trace = kCorpus / "succeed/wk-heartbeat-u";
    start({"--source", "ctf:" + trace.string()});
    // The capture ends by itself once the trace is read.
    const e2e::CheckedCapture checked = capture_to_end(std::chrono::seconds(20));
    std::vector<apc::DecodedFrame> frames = checked.frames;
    auto events = apc::rebuild_events(frames);
    ASSERT_TRUE(events) << events.error().to_string();
    EXPECT_EQ(channel_texts(*events, "heartbeat:msg").size(), 20U);
    EXPECT_GT(checked.thread_names, 0U);
}

// ---- LTTng-UST traces made by the test --------------------------------------------------------

fs::path ust_app() {
    return apcgate::test_paths::ctf_ust_app();
}

// Why the LTTng-UST traces cannot be made and compared with babeltrace2 here (empty: they can).
std::string why_no_ust_comparison() {
    if (ust_app().empty()) return "ctf_ust_app was not built (liblttng-ust-dev is not installed)";
    if (auto why = lttng_unavailable(); !why.empty()) return why;
    if (!babeltrace_available()) return "babeltrace2 (Debian package babeltrace2) is not installed";
    return {};
}

TEST(CtfLttng, UstTraceConvertsWithBabeltracesCountsPerEventName) {
    REQUIRE_BINARY();
    if (const auto why = why_no_ust_comparison(); !why.empty()) GTEST_SKIP() << why;
    const fs::path dir = scratch_dir("ust");
    auto trace = make_ust_trace(
        dir / "session", {ust_app().string(), "3000"},
        {"vpid", "vtid", "procname", "perf:thread:task-clock", "perf:thread:page-fault"});
    ASSERT_TRUE(trace) << trace.error().to_string();
    const Reference ref = babeltrace_reference(trace->dir);
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    EXPECT_EQ(ref.events.at("apcgate_ctf_test:tick"), 6000U);

    const fs::path out = dir / "out.apc";
    auto [rc, text] = run_apcgate({"convert", trace->dir.string(), "-o", out.string(), "--json"});
    ASSERT_EQ(rc, 0) << text;
    const auto json = nlohmann::json::parse(text.substr(text.find('{')), nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << text;
    std::map<std::string, std::uint64_t> converted;
    for (const auto& [kind, s] : json["inputs"][0]["records"].items())
        if (kind.front() != '(') converted[kind] = s["read"].get<std::uint64_t>();
    EXPECT_EQ(converted, ref.events);

    const auto events = decode_apc(out);
    EXPECT_EQ(annotations_per_channel(events), ref.events);
    // Field kinds as LTTng-UST writes them: hex, enumeration labels, sequences, doubles.
    const auto states = channel_texts(events, "apcgate_ctf_test:state");
    ASSERT_FALSE(states.empty());
    EXPECT_EQ(states[0],
              "apcgate_ctf_test:state flags=0xa0, phase=0 (start), _values_length=0, values=[]");
    const auto ticks = channel_texts(events, "apcgate_ctf_test:tick");
    EXPECT_NE(std::find(ticks.begin(), ticks.end(),
                        "apcgate_ctf_test:tick i=2, label=\"worker\", ratio=0.5"),
              ticks.end());
    // tracef and tracelog messages are the annotation text.
    const auto tracef = channel_texts(events, "lttng_ust_tracef:event");
    ASSERT_EQ(tracef.size(), 600U);
    EXPECT_EQ(tracef[0], "tracef message 0");
    const auto tracelog =
        channel_texts(events, "lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING");
    ASSERT_EQ(tracelog.size(), 429U);
    EXPECT_EQ(tracelog[0].rfind("tracelog 0 (main at ", 0), 0U) << tracelog[0];

    const auto summary = inspect(out);
    EXPECT_TRUE(summary["valid"].get<bool>());
    EXPECT_GT(counter_values(summary, "CTF_perf_thread_task_clock"), 100);
    bool worker = false;
    for (const auto& [tid, name] : summary["threads"].items()) worker = worker || name == "worker";
    EXPECT_TRUE(worker) << summary["threads"].dump();
    fs::remove_all(dir);
}

// `lttng snapshot record` writes the session's traces again into a new directory each time, with
// the same trace UUIDs: babeltrace2 reads the directories of one trace as one, each event once.
TEST(CtfLttng, SnapshotsOfOneSessionAreOneTraceAsForBabeltrace) {
    REQUIRE_BINARY();
    if (const auto why = why_no_ust_comparison(); !why.empty()) GTEST_SKIP() << why;
    const fs::path dir = scratch_dir("snapshots");
    auto snapshots = make_ust_snapshots(dir / "session",
                                        {{ust_app().string(), "300"}, {ust_app().string(), "200"}});
    ASSERT_TRUE(snapshots) << snapshots.error().to_string();
    const Reference ref = babeltrace_reference(*snapshots);
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    // Both runs once: 2 threads x (300 + 200) ticks.
    EXPECT_EQ(ref.events.at("apcgate_ctf_test:tick"), 1000U);

    const fs::path out = dir / "out.apc";
    auto [rc, text] = run_apcgate({"convert", snapshots->string(), "-o", out.string(), "--json"});
    ASSERT_EQ(rc, 0) << text;
    const auto json = nlohmann::json::parse(text.substr(text.find('{')), nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << text;
    std::map<std::string, std::uint64_t> converted;
    for (const auto& [kind, s] : json["inputs"][0]["records"].items())
        if (kind.front() != '(') converted[kind] = s["read"].get<std::uint64_t>();
    EXPECT_EQ(converted, ref.events);
    EXPECT_EQ(annotations_per_channel(decode_apc(out)), ref.events);
    EXPECT_TRUE(inspect(out)["valid"].get<bool>());
    fs::remove_all(dir);
}

}  // namespace
}  // namespace apcgate::ctf_test
