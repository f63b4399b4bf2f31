// CPU time from a Perf-framing capture's records, on hand-made records: per-task switch records
// (following a command) delivered one CPU's frame after another, out of time order; a task
// already running when the capture began; an exiting task; sched_switch samples decoded with the
// capture's FORMAT text (system-wide); and no switch source at all.
#include "daemon/analysis/perf_switches.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <cstring>
#include <deque>
#include <set>
#include <string>

namespace apcgate::daemon::analysis {
namespace {

namespace pfr = perf_framing;

// The kernel's tracefs format of sched:sched_switch (Linux 6.x), as a FORMAT message carries it.
constexpr const char* kSchedSwitchFormat =
    "name: sched_switch\n"
    "ID: 372\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"prev_state=%s\", __print_flags(REC->prev_state, \"|\", { 0x00000001, \"S\" }, "
    "{ 0x00000002, \"D\" }, { 0x00000080, \"I\" })\n";

std::vector<std::uint8_t> payload(std::int32_t prev, std::int64_t prev_state, std::int32_t next) {
    std::vector<std::uint8_t> raw(64, 0);
    std::memcpy(raw.data() + 8, "prev", 4);
    std::memcpy(raw.data() + 24, &prev, 4);
    std::memcpy(raw.data() + 32, &prev_state, 8);
    std::memcpy(raw.data() + 40, "next", 4);
    std::memcpy(raw.data() + 56, &next, 4);
    return raw;
}

// Feeds hand-made records to PerfSwitches and reads the accounting's rows.
class Switches {
  public:
    Switches() { sideband_.flags |= 1ull << pfr::PerfAttr::kContextSwitchBit; }

    void online(std::initializer_list<std::int32_t> cpus) {
        for (const auto c : cpus) switches_.cpu_online(c, true);
    }
    void no_switch_source() { sideband_.flags = 0; }
    void attrs() {
        switches_.attr(sideband_);
        tracepoint_.type = PERF_TYPE_TRACEPOINT;
        tracepoint_.config = 372;
        switches_.attr(tracepoint_);
    }
    void format() { switches_.format(kSchedSwitchFormat); }

    // A record of `tid` (its sample_id) at `ts` on `cpu`.
    pfr::PerfRecord& add(std::uint32_t type, std::int32_t cpu, std::uint64_t ts, std::uint32_t tid,
                         std::uint16_t misc = 0) {
        pfr::PerfRecord& r = records_.emplace_back();
        r.header.type = type;
        r.header.misc = misc;
        r.time = ts;
        r.pid = tid;
        r.tid = tid;
        cpus_.push_back(cpu);
        return r;
    }
    // `cut_to`: the payload's bytes kept (a short, broken one).
    void sched_switch(std::int32_t cpu, std::uint64_t ts, std::int32_t prev, std::int64_t state,
                      std::int32_t next, std::size_t cut_to = 64) {
        payloads_.push_back(payload(prev, state, next));
        payloads_.back().resize(cut_to);
        pfr::PerfRecord& r = add(PERF_RECORD_SAMPLE, cpu, ts, static_cast<std::uint32_t>(prev));
        r.raw = payloads_.back();
        tracepoint_records_.insert(records_.size() - 1);
    }

    Report run(std::int64_t end) {
        for (std::size_t i = 0; i < records_.size(); ++i) {
            const pfr::PerfAttr* a = tracepoint_records_.contains(i) ? &tracepoint_ : &sideband_;
            switches_.record(pfr::RecordView{0, cpus_[i], 1, a, &records_[i]});
        }
        switches_.finish();
        timeline_.finish(end);
        Report r;
        timeline_.fill(r);
        switches_.fill(r);
        return r;
    }
    [[nodiscard]] std::uint64_t switches() const { return switches_.switches(); }

  private:
    TimelineAccounting timeline_;
    PerfSwitches switches_{timeline_};
    pfr::PerfAttr sideband_, tracepoint_;
    std::deque<pfr::PerfRecord> records_;
    std::deque<std::vector<std::uint8_t>> payloads_;
    std::vector<std::int32_t> cpus_;
    std::set<std::size_t> tracepoint_records_;
};

const ThreadRow* thread(const Report& r, std::int32_t tid) {
    for (const auto& t : r.threads)
        if (t.tid == tid) return &t;
    return nullptr;
}

std::int64_t on_core(const ThreadRow& t, std::int32_t core) {
    for (const auto& [c, ns] : t.cpu_ns_by_core)
        if (c == core) return ns;
    return 0;
}

constexpr std::size_t kOther = 0, kContention = 1, kIo = 2;

// Following a command: tid 7 is seen on CPU 0 (its exec's COMM record), is preempted there,
// resumes on CPU 1 and blocks. CPU 1's frame comes first in the file.
TEST(PerfSwitches, SwitchRecordsAcrossCpusCountInTimeOrder) {
    Switches s;
    s.attrs();
    s.online({0, 1});
    s.add(PERF_RECORD_SWITCH, 1, 3500, 7);                               // in
    s.add(PERF_RECORD_SWITCH, 1, 6000, 7, PERF_RECORD_MISC_SWITCH_OUT);  // out, blocked
    s.add(PERF_RECORD_COMM, 0, 1000, 7);
    s.add(PERF_RECORD_SWITCH, 0, 3000, 7,
          PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
    const Report r = s.run(8000);
    const ThreadRow* t = thread(r, 7);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->cpu_ns, 2000 + 2500);
    EXPECT_EQ(on_core(*t, 0), 2000);
    EXPECT_EQ(on_core(*t, 1), 2500);
    EXPECT_EQ(t->wait_ns[kContention], 500);
    EXPECT_EQ(t->wait_ns[kOther], 2000);
    EXPECT_EQ(t->wait_ns[kIo], 0);
    ASSERT_EQ(r.processes.size(), 1U);
    EXPECT_EQ(r.processes[0].cpu_ns, 4500);
}

// A task that never switches runs from its first record to the end, or to its EXIT record.
TEST(PerfSwitches, ARunningTaskCountsFromItsFirstRecordToItsExit) {
    Switches s;
    s.attrs();
    s.online({0, 1});
    s.add(PERF_RECORD_SAMPLE, 0, 1000, 9);
    s.add(PERF_RECORD_SAMPLE, 0, 1500, 9);
    s.add(PERF_RECORD_SAMPLE, 1, 1200, 11);
    s.add(PERF_RECORD_EXIT, 1, 2200, 11).body_tid = 11;
    const Report r = s.run(5000);
    ASSERT_NE(thread(r, 9), nullptr);
    EXPECT_EQ(thread(r, 9)->cpu_ns, 4000);
    ASSERT_NE(thread(r, 11), nullptr);
    EXPECT_EQ(thread(r, 11)->cpu_ns, 1000);
    EXPECT_EQ(thread(r, 11)->wait_ns[kOther], 0);
}

// Without switch records or the tracepoint nothing says when a task stops: no CPU time.
TEST(PerfSwitches, NoSwitchSourceGivesNoCpuTime) {
    Switches s;
    s.no_switch_source();
    s.attrs();  // the tracepoint attr, but no FORMAT names it sched_switch
    s.add(PERF_RECORD_SAMPLE, 0, 1000, 9);
    s.add(PERF_RECORD_SAMPLE, 0, 1500, 9);
    const Report r = s.run(5000);
    EXPECT_EQ(thread(r, 9), nullptr);  // never seen running, no CPU samples counted here
    for (const auto& t : r.threads) EXPECT_EQ(t.cpu_ns, 0) << t.tid;
    EXPECT_EQ(s.switches(), 0U);
}

// System-wide: sched_switch samples, decoded with the capture's FORMAT; prev_state D is an io
// wait.
TEST(PerfSwitches, SchedSwitchSamplesGiveRunningAndWaitTimes) {
    Switches s;
    s.no_switch_source();
    s.format();
    s.attrs();
    s.online({0});
    s.sched_switch(0, 1000, 0, 0, 7);
    s.sched_switch(0, 3000, 7, 2, 0);  // D
    s.sched_switch(0, 4000, 0, 0, 7);
    s.sched_switch(0, 4500, 7, 0x100, 8);  // preempted (above the highest print flag)
    const Report r = s.run(5000);
    const ThreadRow* t = thread(r, 7);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->cpu_ns, 2000 + 500);
    EXPECT_EQ(t->wait_ns[kIo], 1000);
    EXPECT_EQ(t->wait_ns[kContention], 500);
    ASSERT_NE(thread(r, 8), nullptr);
    EXPECT_EQ(thread(r, 8)->cpu_ns, 500);
    EXPECT_EQ(s.switches(), 4U);
}

// A payload the FORMAT's offsets do not fit is counted, and the switches around it still count.
TEST(PerfSwitches, UndecodableSamplesAreCountedAsALoss) {
    Switches s;
    s.no_switch_source();
    s.format();
    s.attrs();
    s.online({0});
    s.sched_switch(0, 1000, 0, 0, 7);
    s.sched_switch(0, 2000, 7, 1, 0, 30);  // cut within prev_pid's field
    s.sched_switch(0, 4000, 7, 1, 0);
    const Report r = s.run(5000);
    ASSERT_EQ(r.losses.values().size(), 1U);
    EXPECT_EQ(r.losses.values()[0].spec->name, "switch_samples_undecodable");
    EXPECT_EQ(r.losses[AnalysisStat::SwitchSamplesUndecodable], 1U);
    ASSERT_NE(thread(r, 7), nullptr);
    EXPECT_EQ(thread(r, 7)->cpu_ns, 3000);
}

}  // namespace
}  // namespace apcgate::daemon::analysis
