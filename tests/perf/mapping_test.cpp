// From records to model events without a kernel: address spaces and cookies, /proc text
// parsing, the normalizer's choice of switch source per mode, and the mapper's bookkeeping of
// threads, processes, images and names.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/image_map.hpp"
#include "collectors/perf/proc_reader.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "events_of.hpp"

namespace apcgate::collectors::perf {
namespace {

namespace fs = std::filesystem;

using testing::all_of;

TEST(AddressSpace, ResolvesToFileOffsetsAndNewMappingsCutOldOnes) {
    AddressSpace s;
    s.map(0x1000, 0x3000, 0x0, 2);  // [0x1000, 0x4000)
    auto f = s.resolve(0x2345);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->cookie, 2);
    EXPECT_EQ(f->offset, 0x1345);
    EXPECT_FALSE(s.resolve(0x4000));
    EXPECT_FALSE(s.resolve(0xfff));
    s.map(0x2000, 0x1000, 0x9000, 3);  // punches a hole in the middle
    EXPECT_EQ(s.size(), 3U);
    EXPECT_EQ(s.resolve(0x1fff)->cookie, 2);
    EXPECT_EQ(s.resolve(0x2010)->cookie, 3);
    EXPECT_EQ(s.resolve(0x2010)->offset, 0x9010);
    EXPECT_EQ(s.resolve(0x3004)->cookie, 2);
    EXPECT_EQ(s.resolve(0x3004)->offset, 0x2004);  // the right remainder keeps its file offset
    s.map(0x0, 0x10000, 0, 4);                     // covers everything
    EXPECT_EQ(s.size(), 1U);
    s.map(0xffffffffffff0000ull, 0x20000, 0, 5);  // wraps: ignored
    EXPECT_EQ(s.size(), 1U);
}

TEST(CookieTable, OneCookiePerImageNamedOnce) {
    CookieTable t;
    const auto a = t.cookie("/bin/a");
    const auto b = t.cookie("/lib/b.so");
    EXPECT_EQ(a, 2);
    EXPECT_EQ(b, 3);
    EXPECT_EQ(t.cookie("/bin/a"), a);
    EXPECT_EQ(t.cookie(""), kUnknownCookie);
    std::vector<model::Event> out;
    t.announce(a, 5, 1, out);
    t.announce(a, 6, 1, out);
    t.announce(kKernelCookie, 6, 1, out);
    const auto names = all_of<model::CookieName>(out);
    ASSERT_EQ(names.size(), 1U);
    EXPECT_EQ(names[0].name, "/bin/a");
    EXPECT_EQ(names[0].cookie, a);
}

TEST(ProcText, MapsKeepsExecutableFileMappingsOnly) {
    const char* text =
        "55d0c0000000-55d0c0001000 r--p 00000000 08:01 123 /usr/bin/app\n"
        "55d0c0001000-55d0c0005000 r-xp 00001000 08:01 123 /usr/bin/app\n"
        "7f0000000000-7f0000020000 r-xp 00002000 08:01 456 /usr/lib/libc.so.6 (deleted)\n"
        "7f0000100000-7f0000101000 rw-p 00000000 00:00 0 \n"
        "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]\n"
        "garbage line\n";
    std::size_t bad = 0;
    const auto maps = parse_maps(text, &bad);
    ASSERT_EQ(maps.size(), 3U);
    EXPECT_EQ(maps[0].path, "/usr/bin/app");
    EXPECT_EQ(maps[0].pgoff, 0x1000U);
    EXPECT_EQ(maps[1].path, "/usr/lib/libc.so.6");
    EXPECT_EQ(maps[2].path, "[vdso]");
    EXPECT_EQ(bad, 1U);
    EXPECT_EQ(parse_status_tgid("Name:\tx\nUmask:\t0022\nState:\tS\nTgid:\t4242\nNgid:\t0\n"),
              4242);
    EXPECT_FALSE(parse_status_tgid("Name:\tx\n"));
}

TEST(ProcReader, ReadsAFakeTree) {
    const fs::path root = fs::temp_directory_path() / ("perf_proc." + std::to_string(::getpid()));
    fs::create_directories(root / "42/task/42");
    fs::create_directories(root / "42/task/43");
    std::ofstream(root / "42/task/43/comm") << "worker\n";
    std::ofstream(root / "42/cmdline") << std::string("/opt/app\0--flag\0", 16);
    fs::create_directories(root / "43");
    std::ofstream(root / "43/status") << "Name:\tworker\nTgid:\t42\n";
    fs::create_directories(root / "7/task/7");
    std::ofstream(root / "7/task/7/comm") << "kthreadd\n";
    const ProcReader p(root);
    auto pids = p.pids();
    std::sort(pids.begin(), pids.end());
    EXPECT_EQ(pids, (std::vector<std::int32_t>{7, 42, 43}));
    auto tids = p.tids(42);
    std::sort(tids.begin(), tids.end());
    EXPECT_EQ(tids, (std::vector<std::int32_t>{42, 43}));
    EXPECT_EQ(p.comm(42, 43), "worker");
    EXPECT_EQ(p.tgid(43), 42);
    EXPECT_EQ(p.image(42), "/opt/app");   // no exe link: the command line's first word
    EXPECT_EQ(p.image(7), "[kthreadd]");  // neither: the comm in brackets
    EXPECT_EQ(p.image(99), "");
    fs::remove_all(root);
}

class Normalize : public ::testing::Test {
  protected:
    ingest::IngestReport report{"perf", "test"};
    std::vector<TraceEvent> out;
    SwitchRecord sw(bool switch_out, bool preempted, bool cpu_wide, std::int32_t tid,
                    std::int32_t next) {
        SwitchRecord s;
        s.sid.tid = tid;
        s.sid.cpu = 1;
        s.sid.time = 10;
        s.out = switch_out;
        s.preempted = preempted;
        s.cpu_wide = cpu_wide;
        s.next_prev_tid = next;
        return s;
    }
};

TEST_F(Normalize, SystemWideUsesTheOutHalfOfCpuWideSwitches) {
    RecordNormalizer n(NormalizerConfig{}, report);
    n.add(sw(true, true, true, 5, 6), 0, "r", out);
    n.add(sw(false, false, true, 6, 5), 0, "r", out);
    ASSERT_EQ(out.size(), 1U);
    const auto& s = std::get<SwitchEv>(out[0]);
    EXPECT_EQ(s.next_tid, 6);
    EXPECT_EQ(s.wait, model::WaitState::Contention);
    EXPECT_EQ(report.kinds().at(std::string(kinds::kSwitchCpuWide)).skipped, 1U);
}

TEST_F(Normalize, FollowingUsesTheTasksOwnSwitches) {
    NormalizerConfig c;
    c.follow = true;
    RecordNormalizer n(c, report);
    n.add(sw(false, false, false, 7, -1), 0, "r", out);  // 7 starts running
    n.add(sw(true, false, false, 7, -1), 0, "r", out);   // 7 leaves, not preempted
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(std::get<SwitchEv>(out[0]).next_tid, 7);
    EXPECT_EQ(std::get<SwitchEv>(out[1]).next_tid, -1);
    EXPECT_EQ(std::get<SwitchEv>(out[1]).wait, model::WaitState::Other);
}

TEST_F(Normalize, CpuIdleSamplesBecomeIdleEventsOnTheCpuTheyName) {
    NormalizerConfig c;
    TracepointFormat f;
    f.name = "cpu_idle";
    f.fields = {{"state", "u32", 8, 4, false, false}, {"cpu_id", "u32", 12, 4, false, false}};
    c.cpu_idle = *CpuIdleLayout::from(f);
    RecordNormalizer n(c, report);
    n.set_role(4, EventRole::CpuIdle);
    SampleRecord s;
    s.sid.id = 4;
    s.sid.time = 99;
    s.sid.cpu = 0;
    const std::uint8_t raw[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0};
    s.raw = raw;
    n.add(s, 0, "r", out);
    ASSERT_EQ(out.size(), 1U);
    const auto& idle = std::get<IdleEv>(out[0]);
    EXPECT_EQ(idle.cpu, 1);  // cpu_id, not the CPU that reported it
    EXPECT_EQ(idle.state, -1);
    EXPECT_EQ(idle.time, 99U);
}

TEST_F(Normalize, LostRecordsAreTalliedPerCpu) {
    RecordNormalizer n(NormalizerConfig{}, report);
    LostRecord l;
    l.sid.cpu = 1;
    l.lost = 5;
    n.add(l, 0, "r", out);
    l.lost = 2;
    n.add(l, 0, "r", out);
    l.sid.cpu = 0;
    n.add(l, 0, "r", out);
    EXPECT_EQ(n.lost_total(), 9U);
    auto lost = n.take_lost();
    EXPECT_EQ(lost[1], 7U);
    EXPECT_EQ(lost[0], 2U);
    EXPECT_TRUE(n.take_lost().empty());
}

TEST_F(Normalize, UndecodableTracepointPayloadIsABadRecord) {
    NormalizerConfig c;
    TracepointFormat f;
    f.name = "sched_switch";
    for (const char* name : {"prev_comm", "next_comm"})
        f.fields.push_back({name, "char", 8, 16, false, false});
    for (const char* name : {"prev_pid", "next_pid"})
        f.fields.push_back({name, "int", 24, 4, true, false});
    f.fields.push_back({"prev_state", "long", 32, 8, true, false});
    c.sched_switch = *SchedSwitchLayout::from(f);
    RecordNormalizer n(c, report);
    n.set_role(3, EventRole::SchedSwitch);
    SampleRecord s;
    s.sid.id = 3;
    const std::uint8_t raw[10] = {};
    s.raw = raw;
    n.add(s, 500, "ring cpu 0", out);
    EXPECT_TRUE(out.empty());
    ASSERT_EQ(report.problems().size(), 1U);
    EXPECT_EQ(report.problems()[0].record, "sched:sched_switch");
    EXPECT_EQ(report.kinds().at(std::string(kinds::kSchedSwitch)).read, 1U);
}

// Idle is next_tid 0 from the kernel's reports and -1 for a task not followed: both draw the
// CPU idle, so the second of two such switches in a row would draw an idle CPU switched to idle.
TEST(EventMapper, ASwitchToWhatTheCpuAlreadyShowsIsNotDrawnAgain) {
    EventMapper m(nullptr, model::CounterKey{7});
    std::vector<model::Event> out;
    m.map(SwitchEv{1, 1, 0, "", model::WaitState::Other}, 1, out);
    m.map(SwitchEv{2, 1, -1, "", model::WaitState::Other}, 2, out);
    m.map(SwitchEv{3, 0, 0, "", model::WaitState::Other}, 3, out);  // another CPU
    m.map(SwitchEv{4, 1, 42, "w", model::WaitState::Other}, 4, out);
    m.map(SwitchEv{5, 1, 42, "w", model::WaitState::Other}, 5, out);
    const auto switches = all_of<model::ActivitySwitch>(out);
    ASSERT_EQ(switches.size(), 3U);
    EXPECT_EQ(switches[0].tid, -1);
    EXPECT_EQ(switches[1].core, 0);
    EXPECT_EQ(switches[2].tid, 42);
    EXPECT_EQ(m.stats()[PerfStat::RepeatedSwitches], 2U);
}

// A switch record that reaches the mapper late (after a rename it predates) carries the name
// from before the rename; the thread keeps its newer name. A real capture showed the renamed
// thread of a workload under its exec name this way, now and then, on a loaded machine.
TEST(EventMapper, ALateSwitchDoesNotUndoARename) {
    EventMapper m(nullptr, model::CounterKey{7});
    std::vector<model::Event> out;
    m.map(CommEv{2, 0, 200, 200, true, "perf_workload"}, 2, out);  // exec
    m.map(CommEv{5, 0, 200, 200, false, "burner"}, 5, out);        // pthread_setname_np
    m.map(SwitchEv{3, 1, 200, "perf_workload", model::WaitState::Other}, 3, out);  // late
    m.map(SwitchEv{6, 1, 200, "burner", model::WaitState::Other}, 6, out);
    const auto names = all_of<model::ThreadName>(out);
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.back().name, "burner");
    for (const auto& n : names) {
        if (n.ts > 2) {
            EXPECT_EQ(n.name, "burner") << "renamed back at " << n.ts;
        }
    }
    // A newer name still wins.
    m.map(CommEv{8, 0, 200, 200, false, "again"}, 8, out);
    EXPECT_EQ(all_of<model::ThreadName>(out).back().name, "again");
}

TEST(EventMapper, ForkCommExecMmapSampleSwitchExit) {
    EventMapper m(nullptr, model::CounterKey{7});
    m.seed_process(100, "/bin/sh", {{0x1000, 0x2000, 0, "/bin/sh"}});
    m.seed_thread(100, 100, "sh");
    std::vector<model::Event> out;
    m.map(ForkEv{1, 0, 200, 100, 200, 100}, 1, out);          // sh forks a process
    m.map(CommEv{2, 0, 200, 200, true, "workload"}, 2, out);  // which execs
    m.map(MmapEv{3, 0, 200, 0x400000, 0x2000, 0x1000, true, "/opt/workload"}, 3, out);
    m.map(ForkEv{4, 1, 200, 200, 201, 200}, 4, out);       // and starts a thread
    m.map(CommEv{5, 1, 200, 201, false, "ping"}, 5, out);  // naming it
    m.map(SwitchEv{6, 1, 201, "ping", model::WaitState::Io}, 6, out);
    SampleEv smp{7,
                 1,
                 200,
                 201,
                 0x400010,
                 false,
                 {static_cast<std::uint64_t>(-128), 0xffffffff81000000ull,
                  static_cast<std::uint64_t>(-512), 0x400010, 0x7000}};
    m.map(smp, 7, out);
    m.map(SwitchEv{8, 1, 0, "", model::WaitState::Contention}, 8, out);
    m.map(ExitEv{9, 1, 200, 201}, 9, out);

    const auto names = all_of<model::ThreadName>(out);
    ASSERT_GE(names.size(), 3U);
    EXPECT_EQ(names.back().tid, 201);
    EXPECT_EQ(names.back().name, "ping");
    const auto comms = all_of<model::ProcComm>(out);
    ASSERT_FALSE(comms.empty());
    EXPECT_TRUE(std::any_of(comms.begin(), comms.end(), [](const model::ProcComm& c) {
        return c.pid == 200 && c.image == "/opt/workload";
    }));
    const auto cookies = all_of<model::CookieName>(out);
    const auto workload =
        std::find_if(cookies.begin(), cookies.end(),
                     [](const model::CookieName& c) { return c.name == "/opt/workload"; });
    ASSERT_NE(workload, cookies.end());
    const auto links = all_of<model::ActivityLink>(out);
    EXPECT_TRUE(std::any_of(links.begin(), links.end(), [&](const model::ActivityLink& l) {
        return l.tid == 201 && l.pid == 200 && l.cookie == workload->cookie;
    }));
    const auto switches = all_of<model::ActivitySwitch>(out);
    ASSERT_EQ(switches.size(), 2U);
    EXPECT_EQ(switches[0].tid, 201);
    EXPECT_EQ(switches[0].activity, 1);
    EXPECT_EQ(switches[0].key, 7);
    EXPECT_EQ(switches[0].wait, model::WaitState::Io);
    EXPECT_EQ(switches[1].activity, 0);
    EXPECT_EQ(switches[1].tid, -1);
    const auto bts = all_of<model::Backtrace>(out);
    ASSERT_EQ(bts.size(), 1U);
    EXPECT_EQ(bts[0].exec_cookie, workload->cookie);
    ASSERT_EQ(bts[0].frames.size(), 3U);
    EXPECT_EQ(bts[0].frames[0].cookie, kKernelCookie);
    EXPECT_EQ(bts[0].frames[1].cookie, workload->cookie);
    EXPECT_EQ(bts[0].frames[1].offset, 0x1010);  // 0x400010 - 0x400000 + pgoff 0x1000
    EXPECT_EQ(bts[0].frames[2].cookie, kUnknownCookie);
    const auto exits = all_of<model::TaskExit>(out);
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits[0].tid, 201);
    EXPECT_EQ(m.stats()[PerfStat::FramesUnresolved], 1U);
    // Every cookie a backtrace uses was named before it.
    std::vector<std::int32_t> named;
    for (const auto& e : out) {
        if (const auto* c = std::get_if<model::CookieName>(&e)) named.push_back(c->cookie);
        if (const auto* b = std::get_if<model::Backtrace>(&e))
            for (const auto& f : b->frames)
                if (f.cookie > 1) {
                    EXPECT_NE(std::find(named.begin(), named.end(), f.cookie), named.end());
                }
    }
}

TEST(EventMapper, IdleCountersAndNotesPassThrough) {
    EventMapper m(nullptr, std::nullopt);
    std::vector<model::Event> out;
    m.map(IdleEv{1, 1, 2}, 10, out);
    m.map(CounterEv{2, 1, 9, 1234}, 11, out);
    m.map(NoteEv{3, "records lost"}, 12, out);
    ASSERT_EQ(out.size(), 3U);
    const auto& idle = std::get<model::Idle>(out[0]);
    EXPECT_EQ(idle.core, 1);
    EXPECT_EQ(idle.state, 2);
    EXPECT_EQ(idle.ts, 10);
    const auto& s = std::get<model::CounterSample>(out[1]);
    EXPECT_EQ(s.key, 9);
    EXPECT_EQ(s.value, 1234);
    EXPECT_EQ(s.core, 1);
    const auto& a = std::get<model::Annotation>(out[2]);
    EXPECT_EQ(std::get<model::TextAnnotation>(a.body).text, "records lost");
}

TEST(RunningShare, ShareOfEachPeriodATaskRan) {
    RunningShare r;
    // CPU 0: idle until 100, a task until 400, idle, a task from 700 past the period's end.
    r.on_switch(0, false, 50);  // first switch is to idle: something ran since the start
    r.on_switch(0, true, 100);
    r.on_switch(0, false, 400);
    r.on_switch(0, true, 700);
    // Busy: [0,50) + [100,400) + [700,1000) = 650 of 1000 ns.
    EXPECT_EQ(r.end_period(0, 1000), 6500);
    // The task keeps running through the whole next period.
    EXPECT_EQ(r.end_period(0, 2000), RunningShare::kFull);
    r.on_switch(0, false, 2500);
    EXPECT_EQ(r.end_period(0, 3000), 5000);
    EXPECT_EQ(r.end_period(0, 4000), 0);
    EXPECT_FALSE(r.end_period(0, 4000));  // an empty period has no value
    // A CPU never switched reads as idle; a first switch to a task starts the busy time.
    EXPECT_EQ(r.end_period(1, 1000), 0);
    r.on_switch(1, true, 1250);
    EXPECT_EQ(r.end_period(1, 2000), 7500);
    EXPECT_FALSE(r.end_period(-1, 10));  // a corrupt cpu is ignored
}

TEST(EventMapper, ActivityCounterValuesAreEachCpusRunningShare) {
    EventMapper m(nullptr, model::CounterKey{7});
    std::vector<model::Event> out;
    m.map(SwitchEv{1, 1, 0, "", model::WaitState::Other}, 100, out);
    m.map(SwitchEv{2, 1, 42, "worker", model::WaitState::Other}, 300, out);
    m.map(SwitchEv{3, 1, -1, "", model::WaitState::Other}, 800, out);  // not followed: idle
    m.map(ActivityTickEv{4, 1}, 1000, out);
    m.map(ActivityTickEv{4, 0}, 1000, out);
    const auto values = all_of<model::CounterSample>(out);
    ASSERT_EQ(values.size(), 2U);
    EXPECT_EQ(values[0].key, 7);
    EXPECT_EQ(values[0].core, 1);
    EXPECT_EQ(values[0].ts, 1000);
    EXPECT_EQ(values[0].value, 6000);  // [0,100) + [300,800)
    EXPECT_EQ(values[1].core, 0);
    EXPECT_EQ(values[1].value, 0);
    // Without an activity counter there is nothing to give values to.
    EventMapper none(nullptr, std::nullopt);
    std::vector<model::Event> none_out;
    none.map(ActivityTickEv{4, 1}, 1000, none_out);
    EXPECT_TRUE(none_out.empty());
}

TEST(EventMapper, WithoutAnActivityKeyThereAreNoSwitches) {
    EventMapper m(nullptr, std::nullopt);
    std::vector<model::Event> out;
    m.map(SwitchEv{1, 0, 5, "x", model::WaitState::Other}, 1, out);
    EXPECT_TRUE(all_of<model::ActivitySwitch>(out).empty());
}

TEST(EventMapper, SeededThreadsAreNamedAtCaptureStart) {
    EventMapper m(nullptr, model::CounterKey{3});
    m.seed_process(10, "/usr/bin/app", {});
    m.seed_thread(11, 10, "worker");
    m.seed_thread(10, 10, "app");
    std::vector<model::Event> out;
    m.name_seeded(out);
    const auto comms = all_of<model::ProcComm>(out);
    ASSERT_EQ(comms.size(), 2U);
    EXPECT_EQ(comms[0].tid, 10);
    EXPECT_EQ(comms[1].comm, "worker");
    EXPECT_EQ(comms[1].image, "/usr/bin/app");
}

}  // namespace
}  // namespace apcgate::collectors::perf
