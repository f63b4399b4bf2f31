// The CTF source's worker process (collectors/ctf/ctf_worker.hpp) in-process from the source's
// side: a worker killed in the middle of a trace (its test hook) leaves the events it sent, a
// report that says what happened, and no span left open; libbabeltrace2's hangs and crashes at
// open() give a source of no events whose report says why.
#include <gtest/gtest.h>

#include <cstdlib>

#include "collectors/ctf/ctf_ingest.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one test (the worker inherits it).
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { ::unsetenv(name_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
};

TEST(CtfWorker, KilledMidTraceKeepsTheEventsItSent) {
    const fs::path dir = write_tick_trace(scratch_dir("killed") / "t", 10, 10000);
    const ScopedEnv kill("APCGATE_CTF_WORKER_KILL_AFTER_CHUNKS", "1");
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    // The first chunk (about kChunkEvents model events) arrived; the rest never did.
    const std::size_t texts = r.texts("app:tick").size();
    EXPECT_GT(texts, collectors::ctf::kChunkEvents / 2);
    EXPECT_LT(texts, 100000U);
    ASSERT_FALSE(r.report().complete());
    const std::string why = r.report().stop_reason()->to_string();
    EXPECT_NE(why.find("libbabeltrace2 crashed (SIGKILL) decoding " + dir.string()),
              std::string::npos)
        << why;
    EXPECT_NE(
        why.find("after " + std::to_string(r.report().kinds().at("app:tick").read) + " events"),
        std::string::npos)
        << why;
    // The worker could not end its last annotation: the source did, in its last poll (stop()
    // added nothing).
    std::size_t polled = 0;
    for (std::size_t n : r.poll_sizes) polled += n;
    EXPECT_EQ(polled, r.events.size());
    const auto strings = r.all<model::Annotation>();
    const model::StringAnnotation* last = nullptr;
    for (const auto& a : strings)
        if (const auto* s = std::get_if<model::StringAnnotation>(&a.body)) last = s;
    ASSERT_NE(last, nullptr);
    EXPECT_TRUE(last->text.empty());
    fs::remove_all(dir.parent_path());
}

TEST(CtfWorker, AHangAtOpenIsStoppedAndReported) {
    const fs::path dir = libbabeltrace2_bug("hang-packet-size-zero", scratch_dir("hang") / "t");
    const ScopedEnv idle("APCGATE_CTF_WORKER_IDLE_MS", "1500");
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    ASSERT_FALSE((*run)->report().complete());
    const std::string why = (*run)->report().stop_reason()->to_string();
    EXPECT_NE(why.find("libbabeltrace2 made no progress for 1500 ms opening " + dir.string()),
              std::string::npos)
        << why;
    // No trace event, but the zero samples that make the capture valid.
    EXPECT_TRUE((*run)->texts("app:tick").empty());
    EXPECT_FALSE((*run)->all<model::CounterSample>().empty());
    fs::remove_all(dir.parent_path());
}

TEST(CtfWorker, ACrashAtOpenIsReported) {
    const fs::path dir = libbabeltrace2_bug("segv-array-element", scratch_dir("segv") / "t");
    auto run = run_ctf(dir, 2);  // and again at the second start: still no crash of ours
    ASSERT_TRUE(run) << run.error().to_string();
    const std::string why = (*run)->report().stop_reason()->to_string();
    EXPECT_NE(why.find("libbabeltrace2 crashed (SIGSEGV) opening " + dir.string()),
              std::string::npos)
        << why;
    fs::remove_all(dir.parent_path());
}

// A parent directory holding a good trace and one libbabeltrace2 crashes on while opening: the
// good one is converted, the bad one reported by name.
TEST(CtfWorker, ATraceThatCrashesTheProbeDoesNotCostItsSiblings) {
    const fs::path parent = scratch_dir("siblings");
    write_tick_trace(parent / "good", 2, 100);
    const fs::path bad = libbabeltrace2_bug("segv-array-element", parent / "bad");
    auto run = run_ctf(parent);
    ASSERT_TRUE(run) << run.error().to_string();
    EXPECT_EQ((*run)->texts("app:tick").size(), 200U);
    ASSERT_FALSE((*run)->report().complete());
    const std::string why = (*run)->report().stop_reason()->to_string();
    EXPECT_NE(why.find("libbabeltrace2 crashed (SIGSEGV) opening " + bad.string()),
              std::string::npos)
        << why;
    fs::remove_all(parent);
}

TEST(CtfWorker, RunawayMemoryIsStoppedByTheLimit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "sanitizer builds run the worker without an address-space limit (the "
                    "sanitizers reserve terabytes of shadow memory)";
#endif
    const fs::path dir = libbabeltrace2_bug("hang-2", scratch_dir("memory") / "t");
    const ScopedEnv memory("APCGATE_CTF_WORKER_MEMORY_MB", "300");
    // Growing to the limit takes libbabeltrace2 about 5 s of CPU; on a starved machine (a
    // sanitizer build beside it) the test once took 26.8 s, close to the 30 s no-progress watchdog,
    // which must not stop it first here.
    const ScopedEnv idle("APCGATE_CTF_WORKER_IDLE_MS", "600000");
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    const std::string why = (*run)->report().stop_reason()->to_string();
    EXPECT_NE(
        why.find("libbabeltrace2 used more than its 300 MiB memory limit opening " + dir.string()),
        std::string::npos)
        << why;
    fs::remove_all(dir.parent_path());
}

TEST(CtfWorker, AMissingWorkerExecutableIsAnError) {
    const fs::path dir = write_tick_trace(scratch_dir("noexe") / "t", 1, 10);
    auto source = collectors::ctf::open({dir, {}, "/nonexistent/apcgate"});
    ASSERT_TRUE(source);  // the probe's worker could not run: a source of nothing...
    const auto& why = (*source)->report().stop_reason();
    ASSERT_TRUE(why);  // ...that says so
    EXPECT_NE(why->to_string().find("the CTF worker exited with status 127 opening"),
              std::string::npos)
        << why->to_string();
    fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace apcgate::ctf_test
