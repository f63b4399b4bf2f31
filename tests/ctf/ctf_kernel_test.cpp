// LTTng kernel event mappings on a hand-made trace with lttng-modules' event names and fields
// (kernel tracing is not available on the test machines), checked event by event; the same
// trace read by babeltrace2 gives the same event counts. Also: bounded polls on a larger trace,
// a truncated stream, and an out-of-range cpu_id.
#include <gtest/gtest.h>

#include <fstream>

#include "babeltrace_reference.hpp"
#include "collectors/ctf/ctf_source.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;

enum Id : std::uint32_t {
    kSwitch,
    kFork,
    kExec,
    kExit,
    kFree,
    kStatedump,
    kIrqIn,
    kIrqOut,
    kSoftIn,
    kSoftOut,
    kWakeup
};

std::vector<EventClass> kernel_classes() {
    return {
        {"sched_switch",
         "string prev_comm; int32_t prev_tid; int32_t prev_prio; int64_t prev_state; "
         "string next_comm; int32_t next_tid; int32_t next_prio;"},
        {"sched_process_fork",
         "string parent_comm; int32_t parent_tid; int32_t parent_pid; "
         "string child_comm; int32_t child_tid; int32_t child_pid;"},
        {"sched_process_exec", "string filename; int32_t tid; int32_t old_tid;"},
        {"sched_process_exit", "string comm; int32_t tid; int32_t prio;"},
        {"sched_process_free", "string comm; int32_t tid; int32_t prio;"},
        {"lttng_statedump_process_state",
         "int32_t tid; int32_t vtid; int32_t pid; int32_t vpid; "
         "int32_t ppid; string name; int32_t type;"},
        {"irq_handler_entry", "int32_t irq; string name;"},
        {"irq_handler_exit", "int32_t irq; int32_t ret;"},
        {"irq_softirq_entry", "uint32_t vec;"},
        {"irq_softirq_exit", "uint32_t vec;"},
        {"sched_wakeup", "string comm; int32_t tid; int32_t prio; int32_t target_cpu;"},
    };
}

TraceEvent sw(std::uint64_t ts, const std::string& prev, int prev_tid, std::int64_t state,
              const std::string& next, int next_tid) {
    return {kSwitch, ts,
            Payload().str(prev).i32(prev_tid).i32(120).i64(state).str(next).i32(next_tid).i32(120)};
}

// Two cores; cpu 1's stream loses 5 events between its packets.
fs::path write_kernel_trace(const fs::path& dir) {
    CtfTraceWriter w(dir, kernel_classes());
    w.packet(
        "chan_0", 0, 0,
        {{kStatedump, 1000,
          Payload().i32(100).i32(100).i32(100).i32(100).i32(1).str("daemon").i32(0)},
         sw(2000, "swapper/0", 0, 0, "daemon", 100),
         {kFork, 3000, Payload().str("daemon").i32(100).i32(100).str("daemon").i32(101).i32(101)},
         {kIrqIn, 4000, Payload().i32(19).str("eth0")},
         {kIrqOut, 4500, Payload().i32(19).i32(1)},
         sw(5000, "daemon", 100, 2, "daemon", 101),
         {kExec, 6000, Payload().str("/usr/bin/worker-with-a-long-name").i32(101).i32(101)},
         {kWakeup, 6500, Payload().str("daemon").i32(100).i32(120).i32(0)},
         {kExit, 7000, Payload().str("worker-with-a-l").i32(101).i32(120)},
         sw(7100, "worker-with-a-l", 101, 0x40, "swapper/0", 0),
         {kFree, 8000, Payload().str("worker-with-a-l").i32(101).i32(120)},
         {kFree, 8100, Payload().str("gone").i32(555).i32(120)}});
    w.packet("chan_1", 1, 0,
             {{kSoftIn, 1500, Payload().u32(3)},
              {kIrqIn, 1600, Payload().i32(20).str("timer")},  // nested in the softirq
              {kIrqOut, 1700, Payload().i32(20).i32(1)},
              {kSoftOut, 2500, Payload().u32(3)},
              sw(2600, "swapper/1", 0, 0, "daemon", 100)});
    w.packet("chan_1", 1, 5, {sw(9000, "daemon", 100, 0, "swapper/1", 0)});
    w.finish();
    return dir;
}

class KernelTrace : public WrittenTrace {
  protected:
    void SetUp() override { load("kernel", "kernel", write_kernel_trace); }
};

TEST_F(KernelTrace, SchedSwitchIsOneActivitySwitchEach) {
    const auto switches = run_->all<model::ActivitySwitch>();
    ASSERT_EQ(switches.size(), 5U);
    // In time order across cores: 2000 (core 0), 2600 (core 1), 5000, 7100 (core 0), 9000 (core 1).
    EXPECT_EQ(switches[0].core, 0);
    EXPECT_EQ(switches[0].tid, 100);
    EXPECT_EQ(switches[0].activity, 1);
    EXPECT_EQ(switches[0].wait, model::WaitState::Contention);  // swapper was runnable
    EXPECT_EQ(switches[1].core, 1);
    EXPECT_EQ(switches[2].tid, 101);
    EXPECT_EQ(switches[2].wait, model::WaitState::Io);  // prev_state 2: D
    EXPECT_EQ(switches[3].activity, 0);                 // to the idle task
    EXPECT_EQ(switches[3].tid, -1);
    EXPECT_EQ(switches[3].wait, model::WaitState::Other);  // 0x40: dead, not runnable
    EXPECT_EQ(switches[4].core, 1);
    const auto key = run_->counters.key("CTF_cpu_activity");
    ASSERT_TRUE(key);
    EXPECT_EQ(switches[0].key, *key);
    // The clock's offset (1700000000 s) and the packet's start define the capture's zero.
    EXPECT_EQ(run_->source->time_origin(), 1700000000LL * 1'000'000'000 + 1000);
    EXPECT_EQ(switches[0].ts, 1000);
}

TEST_F(KernelTrace, ProcessEventsNameThreadsAndEndThem) {
    std::map<std::int32_t, std::string> names;
    for (const auto& n : run_->all<model::ThreadName>()) names[n.tid] = n.name;
    EXPECT_EQ(names[100], "daemon");
    EXPECT_EQ(names[101], "worker-with-a-l");  // exec: the file's name, cut to 15 bytes
    bool exec_image = false;
    bool forked = false;
    for (const auto& c : run_->all<model::ProcComm>()) {
        forked = forked || (c.tid == 101 && c.pid == 101 && c.comm == "daemon");
        exec_image = exec_image || (c.tid == 101 && c.image == "/usr/bin/worker-with-a-long-name");
    }
    EXPECT_TRUE(forked);
    EXPECT_TRUE(exec_image);
    std::vector<std::int32_t> exits;
    for (const auto& e : run_->all<model::TaskExit>()) exits.push_back(e.tid);
    // 101 exits once (exit, then free says nothing more); 555 was only freed.
    EXPECT_EQ(exits, (std::vector<std::int32_t>{101, 555}));
}

TEST_F(KernelTrace, InterruptsBecomeCountsAndTimePerCore) {
    const auto totals = run_->counter_totals();
    EXPECT_EQ(totals.at("CTF_irq"), 2);
    EXPECT_EQ(totals.at("CTF_irq_time"), 500 + 100);
    EXPECT_EQ(totals.at("CTF_softirq"), 1);
    EXPECT_EQ(totals.at("CTF_softirq_time"), 1000);
    for (const auto& s : run_->all<model::CounterSample>())
        if (run_->counters.by_key(s.key)->counter == "CTF_softirq_time") {
            EXPECT_EQ(s.core, 1);
        }
}

TEST_F(KernelTrace, OtherEventsAreAnnotationsAndLossesAreCounted) {
    const auto wakeups = run_->texts("sched_wakeup");
    ASSERT_EQ(wakeups.size(), 1U);
    EXPECT_EQ(wakeups[0], "sched_wakeup comm=\"daemon\", tid=100, prio=120, target_cpu=0");
    EXPECT_EQ(run_->counter_totals().at("CTF_discarded_events"), 5);
    EXPECT_EQ(run_->report().kinds().at("sched_switch").read, 5U);
    EXPECT_EQ(run_->target.name, "ctf-test-host");
    EXPECT_EQ(run_->target.cores, 2);
}

TEST_F(KernelTrace, SameCountsAsBabeltrace) {
    if (!babeltrace_available())
        GTEST_SKIP() << "babeltrace2 (Debian package babeltrace2) is not installed";
    const Reference ref = babeltrace_reference(dir_);
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    EXPECT_EQ(run_->event_counts(), ref.events);
    EXPECT_EQ(ref.discarded_events, 5U);
}

TEST(CtfBounds, PollsHandOutBoundedChunks) {
    const fs::path dir = write_tick_trace(scratch_dir("many") / "t", 10, 10000);
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    const TraceRun& r = **run;
    EXPECT_EQ(r.texts("app:tick").size(), 100000U);
    EXPECT_GE(r.poll_sizes.size(), 2U);  // more than one chunk's worth: several polls
    for (std::size_t n : r.poll_sizes) EXPECT_LE(n, collectors::ctf::kChunkEvents + 1024);
    fs::remove_all(dir.parent_path());
}

TEST(CtfBounds, TruncatedStreamKeepsWhatCameBefore) {
    const fs::path dir = write_tick_trace(scratch_dir("cut") / "t", 3, 100);
    fs::resize_file(dir / "chan_0", fs::file_size(dir / "chan_0") - 700);
    auto run = run_ctf(dir);
    if (!run) {  // libbabeltrace2 may already refuse to index the packet
        EXPECT_NE(run.error().to_string().find("chan_0"), std::string::npos)
            << run.error().to_string();
    } else {
        ASSERT_FALSE((*run)->report().complete());
        EXPECT_GE((*run)->texts("app:tick").size(), 200U);
        EXPECT_NE((*run)->report().stop_reason()->to_string().find("chan_0"), std::string::npos);
    }
    fs::remove_all(dir.parent_path());
}

TEST(CtfBounds, OutOfRangeCpuIdIsReportedAndCountedOnCoreZero) {
    const fs::path dir = scratch_dir("cpu") / "t";
    CtfTraceWriter w(dir, {{"app:tick", "int32_t i;"}}, "ust");
    w.packet("chan_0", 70000, 0, {{0, 10, Payload().i32(1)}});
    w.finish();
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    EXPECT_TRUE((*run)->report().complete());
    EXPECT_EQ((*run)->report().kinds().at("CTF packet context").bad, 1U);
    for (const auto& a : (*run)->all<model::Annotation>()) EXPECT_EQ(a.core, 0);
    fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace apcgate::ctf_test
