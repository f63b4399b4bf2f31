// libbabeltrace2 2.0.4's own hangs and crashes (tests/ctf/libbabeltrace2_bugs/) through the real
// binary: `apcgate convert` reports them naming the trace, writes a valid capture and exits 3;
// `apcgate serve --source ctf:` survives them and serves the next connection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "collectors/ctf/worker_frames.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"
#include "daemon_process.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "serve_fixture.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
using e2e::run_apcgate;

bool binary_runs() {
    static const bool kRuns = run_apcgate({"--version"}).first == 0;
    return kRuns;
}
#define REQUIRE_BINARY() \
    if (!binary_runs()) GTEST_SKIP() << "the apcgate binary cannot be run on this host"

bool valid_capture(const fs::path& apc) {
    auto [rc, out] = run_apcgate({"inspect", apc.string(), "--json"});
    EXPECT_EQ(rc, 0) << out;
    const auto start = out.find('{');
    if (start == std::string::npos) return false;
    const auto json = nlohmann::json::parse(out.substr(start), nullptr, false);
    return !json.is_discarded() && json["valid"].get<bool>();
}

struct Bug {
    const char* name;
    const char* says;  // what the report must say, after "libbabeltrace2 "
};

class CtfBugConvert : public ::testing::TestWithParam<Bug> {};

TEST_P(CtfBugConvert, ExitsThreeNamingTheTraceWithAValidCapture) {
    REQUIRE_BINARY();
    // The hangs are stopped by the no-progress watchdog: 2 s here rather than 30. The crashes
    // keep the default, so a loaded machine (or a sanitizer build) that is slow to reach the
    // crash is not taken for a hang.
    const bool hangs = std::string(GetParam().says).rfind("made no progress", 0) == 0;
    if (hangs) ::setenv("APCGATE_CTF_WORKER_IDLE_MS", "2000", 1);
    const fs::path dir = scratch_dir(std::string("bug-") + GetParam().name);
    const fs::path trace = libbabeltrace2_bug(GetParam().name, dir / "trace");
    const fs::path out = dir / "out.apc";
    auto [rc, text] = run_apcgate({"convert", trace.string(), "-o", out.string()});
    ::unsetenv("APCGATE_CTF_WORKER_IDLE_MS");
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(
        text.find(std::string("libbabeltrace2 ") + GetParam().says + " opening " + trace.string()),
        std::string::npos)
        << text;
    EXPECT_TRUE(valid_capture(out));
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Reproducers, CtfBugConvert,
                         ::testing::Values(Bug{"segv-array-element", "crashed (SIGSEGV)"},
                                           Bug{"abort-packet-sizes", "crashed (SIGABRT)"},
                                           Bug{"hang-packet-size-zero", "made no progress for 2 s"},
                                           Bug{"hang-2", "made no progress for 2 s"}),
                         [](const auto& param_info) {
                             std::string n = param_info.param.name;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

// The daemon logs a capture's end after the client has its end of sequence: wait for the line.
bool log_shows(const e2e::DaemonProcess& d, const std::string& text) {
    for (int i = 0; i < 500; ++i) {
        if (d.log().find(text) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

class CtfBugServe : public e2e::ServeTest {
  protected:
    void SetUp() override {}  // started by the test with its --source
};

TEST_F(CtfBugServe, TheDaemonSurvivesACrashingTraceAndServesTheNextConnection) {
    REQUIRE_BINARY();
    const fs::path dir = scratch_dir("bug-serve");
    const fs::path trace = libbabeltrace2_bug("segv-array-element", dir / "trace");
    start({"--source", "ctf:" + trace.string()});
    for (int capture = 0; capture < 2; ++capture)  // the second connection: still serving
        EXPECT_FALSE(capture_to_end(std::chrono::seconds(20)).frames.empty());
    // The log says what happened to the trace: serve has no other place to report it.
    EXPECT_TRUE(log_shows(*daemon_, "reading stopped: ")) << daemon_->log();
    EXPECT_NE(daemon_->log().find("crashed (SIGSEGV)"), std::string::npos) << daemon_->log();
    expect_serving();
    EXPECT_TRUE(daemon_->running());
    fs::remove_all(dir);
}

// A worker that dies in the middle of a capture (its test hook kills it after the first chunk):
// the capture ends with the events it sent, and the daemon serves the next connection.
TEST_F(CtfBugServe, AWorkerDyingMidCaptureEndsItWithTheEventsSent) {
    REQUIRE_BINARY();
    const fs::path dir = scratch_dir("bug-serve-kill");
    CtfTraceWriter w(dir / "trace", {{"app:tick", "int32_t i;"}}, "ust");
    std::uint64_t ts = 0;
    for (int p = 0; p < 10; ++p) {
        std::vector<TraceEvent> events;
        events.reserve(10000);
        for (int i = 0; i < 10000; ++i) events.push_back({0, ts += 1000, Payload().i32(i)});
        w.packet("chan_0", 0, 0, events);
    }
    w.finish();
    ::setenv("APCGATE_CTF_WORKER_KILL_AFTER_CHUNKS", "1", 1);
    start({"--source", "ctf:" + w.dir().string()});
    ::unsetenv("APCGATE_CTF_WORKER_KILL_AFTER_CHUNKS");
    {
        std::vector<apc::DecodedFrame> frames = capture_to_end(std::chrono::seconds(30)).frames;
        auto events = apc::rebuild_events(frames);
        ASSERT_TRUE(events) << events.error().to_string();
        const auto ticks = channel_texts(*events, "app:tick").size();
        EXPECT_GT(ticks, collectors::ctf::kChunkEvents / 2);  // the first chunk's
        EXPECT_LT(ticks, 100000U);                            // not the rest
    }
    EXPECT_TRUE(log_shows(*daemon_, "reading stopped: ")) << daemon_->log();
    expect_serving();
    EXPECT_TRUE(daemon_->running());
    fs::remove_all(dir);
}

}  // namespace
}  // namespace apcgate::ctf_test
