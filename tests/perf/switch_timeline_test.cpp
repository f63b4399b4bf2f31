// The system-wide switch timeline (switch_timeline.hpp): each switch once, whichever of its
// reports (sched:sched_switch, the switch-out and the switch-in record) the kernel wrote, with
// its wait state from the best of them, and every repair counted. First on reports handed in
// directly, then on hand-built ring bytes as this machine's kernel writes them when two threads
// hand a byte back and forth across idle CPUs, through the same parser and normalizer a capture
// uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "collectors/perf/tracepoint_format.hpp"
#include "events_of.hpp"
#include "record_bytes.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::perf {
namespace {

namespace fs = std::filesystem;
using model::WaitState;
using testing::Bytes;
using testing::record;
using testing::sample_id;

SwitchSeen seen(SwitchReport report, std::uint64_t time, std::int32_t cpu, std::int32_t prev,
                std::int32_t next, WaitState wait = WaitState::Other) {
    SwitchSeen s;
    s.report = report;
    s.time = time;
    s.cpu = cpu;
    s.prev_tid = prev;
    s.next_tid = next;
    s.wait = wait;
    return s;
}

constexpr auto kTp = SwitchReport::Tracepoint;
constexpr auto kOut = SwitchReport::SwitchOut;
constexpr auto kIn = SwitchReport::SwitchIn;

// Feeds reports in; the switches they became.
std::vector<SwitchEv> run(SwitchTimeline& t, const std::vector<SwitchSeen>& reports) {
    std::vector<SwitchEv> out;
    for (const auto& r : reports)
        if (auto sw = t.add(r)) out.push_back(std::move(*sw));
    return out;
}

TEST(SwitchTimeline, EachSwitchOnceFromItsFirstReport) {
    SwitchTimeline t;
    const auto out =
        run(t, {seen(kTp, 10, 0, 7, 8, WaitState::Io), seen(kOut, 11, 0, 7, 8),
                seen(kIn, 12, 0, 7, 8), seen(kTp, 20, 0, 8, 7, WaitState::Contention),
                seen(kOut, 21, 0, 8, 7, WaitState::Contention), seen(kIn, 22, 0, 8, 7)});
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(out[0].time, 10U);
    EXPECT_EQ(out[0].next_tid, 8);
    EXPECT_EQ(out[0].wait, WaitState::Io);  // the tracepoint's word, not the record's
    EXPECT_EQ(out[1].time, 20U);
    EXPECT_EQ(out[1].next_tid, 7);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesFromTracepoint], 2U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesFromTracepoint] +
                  t.stats()[PerfStat::SwitchesFromSwitchOut] +
                  t.stats()[PerfStat::SwitchesRepaired],
              2U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesRepaired], 0U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 0U);
}

TEST(SwitchTimeline, ASwitchOnlyItsSwitchInReportedIsRepairedAndCounted) {
    SwitchTimeline t;
    // 7 goes to idle; idle -> 8 has no tracepoint sample and no switch-out record.
    const auto out =
        run(t, {seen(kTp, 10, 0, 7, 0), seen(kOut, 11, 0, 7, 0), seen(kIn, 12, 0, 7, 0),
                seen(kIn, 30, 0, 0, 8), seen(kTp, 40, 0, 8, 0), seen(kOut, 41, 0, 8, 0)});
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(out[1].next_tid, 8);
    EXPECT_EQ(out[1].time, 30U);  // when the switch-in record says 8 started
    EXPECT_EQ(out[1].wait, WaitState::Other);
    EXPECT_EQ(out[2].next_tid, 0);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesRepaired], 1U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesFromTracepoint], 2U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 0U);
    EXPECT_EQ(PerfStatistics::spec(PerfStat::SwitchesRepaired).name,
              "switches_repaired_from_switch_in_records");
    // The capture's repaired-switches counter takes them per CPU, once.
    const auto per_cpu = t.take_repaired();
    ASSERT_EQ(per_cpu.size(), 1U);
    EXPECT_EQ(per_cpu.at(0), 1U);
    EXPECT_TRUE(t.take_repaired().empty());
}

TEST(SwitchTimeline, WithoutTheTracepointTheSwitchOutRecordGivesTheWaitState) {
    SwitchTimeline t;
    const auto out = run(t, {seen(kOut, 11, 0, 7, 8, WaitState::Contention), seen(kIn, 12, 0, 7, 8),
                             seen(kOut, 21, 0, 8, 7, WaitState::Other), seen(kIn, 22, 0, 8, 7)});
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(out[0].wait, WaitState::Contention);
    EXPECT_EQ(out[1].wait, WaitState::Other);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesFromSwitchOut], 2U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesRepaired], 0U);
}

TEST(SwitchTimeline, AnExitingTaskReportedAsMinusOneIsTheSameSwitch) {
    SwitchTimeline t;
    // The tracepoint still names the dying task; the records no longer can.
    const auto out =
        run(t, {seen(kTp, 10, 1, 600, 8), seen(kOut, 11, 1, -1, 8), seen(kIn, 12, 1, -1, 8)});
    EXPECT_EQ(out.size(), 1U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 0U);
}

TEST(SwitchTimeline, TheSamePairAgainIsANewSwitch) {
    SwitchTimeline t;
    const auto out =
        run(t, {seen(kTp, 10, 0, 7, 8), seen(kOut, 11, 0, 7, 8), seen(kTp, 20, 0, 8, 7),
                seen(kIn, 22, 0, 8, 7), seen(kTp, 30, 0, 7, 8), seen(kTp, 40, 0, 7, 8)});
    // The last tracepoint sample cannot be a later report of the one before it, and 8 already
    // runs: it says 7 ran unseen in between, which the timeline cannot show; counted only.
    EXPECT_EQ(out.size(), 3U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 1U);  // 7 -> 8 while 8 ran
}

// Under load the kernel may leave out every report of a task's switch in from idle (seen on
// 6.18 with many short-lived processes): its switch back to idle must not switch an idle CPU to
// idle again (no CPU is switched to what it runs), and the gap is counted.
TEST(SwitchTimeline, ASwitchToTheTaskAlreadyRunningIsCountedNotRepeated) {
    SwitchTimeline t;
    const auto out =
        run(t, {seen(kOut, 10, 1, 7, 0), seen(kIn, 11, 1, 7, 0), seen(kOut, 20, 1, 9, 0),
                seen(kIn, 21, 1, 9, 0), seen(kIn, 30, 1, 0, 7)});
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(out[0].next_tid, 0);
    EXPECT_EQ(out[1].next_tid, 7);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 1U);
}

TEST(SwitchTimeline, CpusAreReconciledApart) {
    SwitchTimeline t;
    const auto out =
        run(t, {seen(kTp, 10, 0, 7, 8), seen(kTp, 10, 1, 9, 7), seen(kOut, 11, 0, 7, 8),
                seen(kOut, 11, 1, 9, 7), seen(kIn, 12, 1, 9, 7), seen(kIn, 12, 0, 7, 8)});
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(out[0].cpu, 0);
    EXPECT_EQ(out[1].cpu, 1);
}

TEST(SwitchTimeline, ASwitchAwayFromATaskNotRunningIsOutOfSequence) {
    SwitchTimeline t;
    const auto out = run(t, {seen(kTp, 10, 0, 7, 8), seen(kIn, 20, 0, 9, 7)});
    EXPECT_EQ(out.size(), 2U);
    EXPECT_EQ(t.stats()[PerfStat::SwitchesOutOfSequence], 1U);
}

// ---- hand-built ring bytes ----------------------------------------------------------------

constexpr std::uint64_t kSbId = 21, kTpId = 22;
constexpr std::uint32_t kPid = 500, kX = 501, kY = 502;
constexpr std::int64_t kSleeping = 1, kUninterruptible = 2, kPreempted = 0x100;

std::string data_file(const std::string& name) {
    std::ifstream in(fs::path(apcgate::test_paths::source_dir()) / "tests/perf/data" / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::uint32_t pid_of(std::uint32_t tid) {
    return tid == 0 ? 0 : kPid;
}

std::string comm_of(std::uint32_t tid) {
    return tid == 0 ? "swapper/0" : tid == kX ? "xping" : "xpong";
}

// A sched:sched_switch sample, written on CPU 0 by `prev`.
std::vector<std::uint8_t> tp(std::uint64_t time, std::uint32_t prev, std::int64_t state,
                             std::uint32_t next) {
    const auto raw =
        testing::sched_switch_payload(comm_of(prev), static_cast<std::int32_t>(prev), state,
                                      comm_of(next), static_cast<std::int32_t>(next));
    Bytes b;
    b.u64(kTpId).u32(pid_of(prev)).u32(prev).u64(time).u32(0).u32(0);
    b.u32(static_cast<std::uint32_t>(raw.size())).append(raw);
    while ((b.size() + 8) % 8 != 0) b.u8(0);
    return record(9, kMiscKernel, b);
}

// A SWITCH_CPU_WIDE record on CPU 0: `prev` leaving for `next` (out), or `next` starting after
// `prev` (in).
std::vector<std::uint8_t> sw(bool out, bool preempted, std::uint64_t time, std::uint32_t prev,
                             std::uint32_t next) {
    const std::uint32_t self = out ? prev : next, other = out ? next : prev;
    Bytes b;
    b.u32(pid_of(other)).u32(other);
    sample_id(b, pid_of(self), self, time, 0, kSbId);
    const std::uint16_t misc = (out ? kMiscSwitchOut : 0) | (preempted ? kMiscSwitchOutPreempt : 0);
    return record(15, misc, b);
}

class RingStream : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(layouts.add(kSbId, testing::kSideband));
        ASSERT_TRUE(layouts.add(kTpId, testing::kTracepoint));
        auto f = parse_tracepoint_format(data_file("sched_switch.format"), "format");
        ASSERT_TRUE(f);
        config.sched_switch = *SchedSwitchLayout::from(*f);
    }

    // The ring of CPU 0 while xping (501) and xpong (502) hand a byte back and forth across two
    // CPUs, as this machine's kernel wrote it: `tracepoint` says which of its samples were
    // written (all, or only those the uninterruptible-sleep filter keeps).
    std::vector<std::uint8_t> ring(bool every_tracepoint_sample) {
        Bytes b;
        const auto add = [&](const std::vector<std::uint8_t>& r) { b.append(r); };
        const auto sample = [&](std::uint64_t time, std::uint32_t prev, std::int64_t state,
                                std::uint32_t next) {
            if (every_tracepoint_sample || (state & kUninterruptible) != 0)
                add(tp(time, prev, state, next));
        };
        // xping waits in read(): CPU 0 idles.
        sample(100, kX, kSleeping, 0);
        add(sw(true, false, 101, kX, 0));
        add(sw(false, false, 102, kX, 0));
        // xpong is woken onto the idle CPU: only its switch-in record is written.
        add(sw(false, false, 200, 0, kY));
        // xpong waits: idle again, with no switch-in record for the idle task.
        sample(300, kY, kSleeping, 0);
        add(sw(true, false, 301, kY, 0));
        // xping is woken: every report written this time.
        sample(400, 0, 0, kX);
        add(sw(true, true, 401, 0, kX));
        add(sw(false, false, 402, 0, kX));
        // xping is preempted by xpong.
        sample(500, kX, kPreempted, kY);
        add(sw(true, true, 501, kX, kY));
        add(sw(false, false, 502, kX, kY));
        // xpong sleeps uninterruptibly.
        sample(600, kY, kUninterruptible, 0);
        add(sw(true, false, 601, kY, 0));
        return b.bytes();
    }

    std::vector<SwitchEv> normalize(const std::vector<std::uint8_t>& bytes) {
        RecordNormalizer n(config, report);
        n.set_role(kSbId, EventRole::Sideband);
        n.set_role(kTpId, EventRole::SchedSwitch);
        RecordParser parser(layouts);
        RecordTokenizer tok(bytes, 0);
        std::vector<TraceEvent> events;
        while (auto raw = tok.next()) {
            auto r = parser.parse(*raw, "ring cpu 0");
            EXPECT_TRUE(r) << r.error().to_string();
            if (r) n.add(std::move(r).value(), raw->offset + kHeaderBytes, "ring cpu 0", events);
        }
        EXPECT_FALSE(tok.error());
        stats = n.statistics();
        std::vector<SwitchEv> out;
        for (auto& e : events)
            if (auto* s = std::get_if<SwitchEv>(&e)) out.push_back(std::move(*s));
        return out;
    }

    const ingest::RecordStats& kind(std::string_view k) const {
        return report.kinds().at(std::string(k));
    }

    LayoutTable layouts;
    NormalizerConfig config;
    ingest::IngestReport report{"perf", "test"};
    PerfStatistics stats;
};

TEST_F(RingStream, ATracepointStreamMissingASwitchInIsRepairedFromTheSwitchInRecord) {
    const auto out = normalize(ring(true));
    ASSERT_EQ(out.size(), 6U);
    const std::vector<std::int32_t> next{0, kY, 0, kX, kY, 0};
    const std::vector<std::uint64_t> time{100, 200, 300, 400, 500, 600};
    // prev_state: sleeping (S), -, S, the idle task runnable (R), preempted, D.
    const std::vector<WaitState> wait{WaitState::Other,      WaitState::Other,
                                      WaitState::Other,      WaitState::Contention,
                                      WaitState::Contention, WaitState::Io};
    for (std::size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].next_tid, next[i]) << i;
        EXPECT_EQ(out[i].time, time[i]) << i;
        EXPECT_EQ(out[i].wait, wait[i]) << i;
        EXPECT_EQ(out[i].cpu, 0) << i;
    }
    EXPECT_EQ(out[1].next_pid, static_cast<std::int32_t>(kPid));  // from the record's sample_id
    EXPECT_EQ(out[3].next_comm, "xping");                         // from the tracepoint
    EXPECT_EQ(stats[PerfStat::SwitchesFromTracepoint], 5U);
    EXPECT_EQ(stats[PerfStat::SwitchesRepaired], 1U);
    EXPECT_EQ(stats[PerfStat::SwitchesFromSwitchOut], 0U);
    EXPECT_EQ(stats[PerfStat::SwitchesOutOfSequence], 0U);
    EXPECT_EQ(kind(kinds::kSchedSwitch).read, 5U);
    EXPECT_EQ(kind(kinds::kSchedSwitch).mapped, 5U);
    EXPECT_EQ(kind(kinds::kSwitchCpuWide).read, 9U);
    EXPECT_EQ(kind(kinds::kSwitchCpuWide).mapped, 1U);  // the repair
    EXPECT_EQ(kind(kinds::kSwitchCpuWide).skipped, 8U);
    EXPECT_EQ(report.problem_count(), 0U);
}

TEST_F(RingStream, WithTheFilteredTracepointTheWaitStateComesFromThePreemptFlagButD) {
    const auto out = normalize(ring(false));
    ASSERT_EQ(out.size(), 6U);
    const std::vector<std::int32_t> next{0, kY, 0, kX, kY, 0};
    // Switch-out records: not preempted (sleeping), -, not preempted, preempted (the idle task
    // is always runnable), preempted; the tracepoint: D.
    const std::vector<WaitState> wait{WaitState::Other,      WaitState::Other,
                                      WaitState::Other,      WaitState::Contention,
                                      WaitState::Contention, WaitState::Io};
    const std::vector<std::uint64_t> time{101, 200, 301, 401, 501, 600};
    for (std::size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].next_tid, next[i]) << i;
        EXPECT_EQ(out[i].wait, wait[i]) << i;
        EXPECT_EQ(out[i].time, time[i]) << i;
    }
    EXPECT_EQ(out[4].next_pid, static_cast<std::int32_t>(kPid));  // next_prev_pid
    EXPECT_EQ(stats[PerfStat::SwitchesFromTracepoint], 1U);
    EXPECT_EQ(stats[PerfStat::SwitchesFromSwitchOut], 4U);
    EXPECT_EQ(stats[PerfStat::SwitchesRepaired], 1U);
    EXPECT_EQ(kind(kinds::kSwitchCpuWide).mapped, 5U);
    EXPECT_EQ(kind(kinds::kSwitchCpuWide).skipped, 4U);
}

TEST_F(RingStream, TheMapperNamesTheRepairedThreadsProcessFromTheRecord) {
    const auto out = normalize(ring(false));
    EventMapper m(nullptr, model::CounterKey{9});
    std::vector<model::Event> events;
    for (const auto& s : out) m.map(s, static_cast<model::Nanos>(s.time), events);
    const auto links = testing::all_of<model::ActivityLink>(events);
    ASSERT_FALSE(links.empty());
    for (const auto& l : links) EXPECT_EQ(l.pid, static_cast<std::int32_t>(kPid)) << l.tid;
    const auto switches = testing::all_of<model::ActivitySwitch>(events);
    ASSERT_EQ(switches.size(), 6U);
    EXPECT_EQ(switches[1].tid, static_cast<std::int32_t>(kY));
    EXPECT_EQ(switches[1].activity, 1);
}

}  // namespace
}  // namespace apcgate::collectors::perf
