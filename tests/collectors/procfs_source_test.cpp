// ProcfsSource end to end on a fake /proc + /sys, and a smoke run on the real /proc.
#include "collectors/procfs/procfs_source.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "collectors/procfs/cpu_info.hpp"
#include "fake_tree.hpp"

namespace apcgate::collectors::procfs {
namespace {

using namespace std::string_literals;
constexpr model::Nanos kMs = 1'000'000;

std::string stat_text(const CpuTimes& c0, const CpuTimes& c1, std::uint64_t ctxt,
                      std::uint64_t intr) {
    const auto line = [](const char* name, const CpuTimes& t) {
        return std::string(name) + " " + std::to_string(t.user) + " " + std::to_string(t.nice) +
               " " + std::to_string(t.system) + " " + std::to_string(t.idle) + " " +
               std::to_string(t.iowait) + " " + std::to_string(t.irq) + " " +
               std::to_string(t.softirq) + " " + std::to_string(t.steal) + " 0 0\n";
    };
    return line("cpu ", CpuTimes{}) + line("cpu0", c0) + line("cpu1", c1) + "intr " +
           std::to_string(intr) + " 0 0 5\nctxt " + std::to_string(ctxt) +
           "\nbtime 1795268035\nprocesses 4573\n";
}

std::string net_text(std::uint64_t lo, std::uint64_t eth_rx, std::uint64_t eth_tx) {
    return "Inter-|   Receive                                                |  Transmit\n"
           " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets\n"
           "    lo: " +
           std::to_string(lo) + " 1 0 0 0 0 0 0 " + std::to_string(lo) +
           " 1 0 0 0 0 0 0\n"
           "  eth0: " +
           std::to_string(eth_rx) + " 5 0 0 0 0 0 0 " + std::to_string(eth_tx) + " 3 0 0 0 0 0 0\n";
}

std::string disk_text(std::uint64_t vda_rd, std::uint64_t vda_wr, std::uint64_t part,
                      std::uint64_t loop) {
    const auto line = [](const char* ids, const char* name, std::uint64_t rd, std::uint64_t wr) {
        return std::string(ids) + " " + name + " 10 0 " + std::to_string(rd) + " 5 20 0 " +
               std::to_string(wr) + " 9 0 4 13 0 0 0 0 0 0\n";
    };
    return line("   7 0", "loop0", loop, loop) + line(" 254 0", "vda", vda_rd, vda_wr) +
           line(" 254 1", "vda1", part, part);
}

constexpr std::string_view kMeminfo =
    "MemTotal:        1000000 kB\nMemFree:          600000 kB\nMemAvailable:     800000 kB\n"
    "Buffers:           10000 kB\nCached:           200000 kB\nSReclaimable:      40000 kB\n";

// A complete fake target: two CPUs, memory, load, eth0 + lo, disk vda (+ partition and loop),
// and one process with two threads.
struct Target {
    testing::FakeTree tree;
    CpuTimes c0{1000, 10, 500, 10000, 100, 5, 5, 0};
    CpuTimes c1{2000, 0, 700, 9000, 50, 1, 1, 0};

    Target() {
        tree.proc_file("stat", stat_text(c0, c1, 5000, 900));
        tree.proc_file("meminfo", kMeminfo);
        tree.proc_file("loadavg", "1.50 0.75 0.25 2/100 1234\n");
        tree.proc_file("net/dev", net_text(7777, 100000, 50000));
        tree.proc_file("diskstats", disk_text(1000, 2000, 1000, 1000));
        tree.sys_dir("block/vda/device");
        tree.sys_dir("block/loop0");
        tree.proc_symlink("42/exe", "/usr/bin/game");
        tree.proc_file("42/comm", "game\n");
        tree.proc_file("42/cmdline", "game\0"s);
        tree.proc_file("42/task/42/comm", "game\n");
        tree.proc_file("42/task/43/comm", "render\n");
        tree.proc_file("sys/kernel/hostname", "fake-host\n");
    }
};

// Every counter of the catalog enabled (the defaults leave some off).
model::Configuration all_of(const model::CounterCatalog& catalog) {
    model::Configuration config;
    for (const auto& name : catalog.available_names())
        config.counters.push_back({name, {}, {}, {}});
    return config;
}

model::Configuration only(std::initializer_list<const char*> names) {
    model::Configuration config;
    for (const char* n : names) config.counters.push_back({n, {}, {}, {}});
    return config;
}

struct Capture {
    model::CounterCatalog catalog;
    model::CaptureSettings settings;
    model::CaptureCounters counters;
    ProcfsSource source;

    explicit Capture(const testing::FakeTree& tree, std::size_t max_threads = kDefaultMaxThreads,
                     ThreadNaming naming = ThreadNaming::EveryThread)
        : source(tree.proc(), tree.sys(), max_threads, naming) {
        source.declare(catalog);
    }
    void start(const model::Configuration& config) {
        counters = model::CaptureCounters::assign(catalog, config);
        ASSERT_TRUE(source.start(CaptureContext{settings, counters, 0}).ok());
    }
    void start_all() { start(all_of(catalog)); }
    model::CounterKey key(std::string_view name) const {
        const auto k = counters.key(name);
        EXPECT_TRUE(k.has_value()) << name;
        return k.value_or(-1);
    }
};

// (counter name, core) -> value of the CounterSamples in `events` at time `ts`.
std::map<std::pair<std::string, int>, std::int64_t> samples(const Capture& c,
                                                            const std::vector<model::Event>& events,
                                                            model::Nanos ts) {
    std::map<std::pair<std::string, int>, std::int64_t> out;
    for (const auto& e : events) {
        const auto* s = std::get_if<model::CounterSample>(&e);
        if (s == nullptr) continue;
        EXPECT_EQ(s->ts, ts);
        const auto* k = c.counters.by_key(s->key);
        EXPECT_NE(k, nullptr);
        if (k == nullptr) continue;
        EXPECT_TRUE(out.emplace(std::pair{k->counter, s->core}, s->value).second)
            << "two samples for " << k->counter << " core " << s->core;
    }
    return out;
}

std::vector<std::string> declared(const model::CounterCatalog& catalog) {
    std::vector<std::string> names;
    for (const auto& s : catalog.counters()) names.push_back(s.counter);
    std::sort(names.begin(), names.end());
    return names;
}

TEST(ProcfsSource, DeclaresEveryCounterWhenEveryFileIsThere) {
    Target t;
    Capture c(t.tree);
    const std::vector<std::string> expected{
        "Linux_block_rq_rd",        "Linux_block_rq_wr",    "Linux_cpu_idle",
        "Linux_cpu_system",         "Linux_cpu_user",       "Linux_irq_total",
        "Linux_loadavg_1",          "Linux_loadavg_15",     "Linux_loadavg_5",
        "Linux_meminfo_bufferram",  "Linux_meminfo_cached", "Linux_meminfo_memfree",
        "Linux_meminfo_memused2",   "Linux_net_rx",         "Linux_net_tx",
        "Linux_sched_ctxt_switches"};
    EXPECT_EQ(declared(c.catalog), expected);

    const model::CounterSpec* user = c.catalog.find("Linux_cpu_user");
    ASSERT_NE(user, nullptr);
    EXPECT_EQ(user->category, "Linux");
    EXPECT_EQ(user->title, "CPU Activity");
    EXPECT_TRUE(user->per_cpu);
    EXPECT_EQ(user->cls, model::CounterClass::Absolute);
    EXPECT_EQ(user->display, model::Display::Average);
    EXPECT_EQ(user->units, "%");
    EXPECT_DOUBLE_EQ(user->multiplier, 0.01);
    const model::CounterSpec* rx = c.catalog.find("Linux_net_rx");
    ASSERT_NE(rx, nullptr);
    EXPECT_EQ(rx->cls, model::CounterClass::Delta);
    EXPECT_EQ(rx->units, "B");
    EXPECT_FALSE(rx->per_cpu);
    for (const auto& s : c.catalog.counters()) EXPECT_EQ(s.delivery, model::Delivery::Block);
}

TEST(ProcfsSource, DeclaresOnlyCountersWhoseFilesExistAndParse) {
    testing::FakeTree tree;
    tree.proc_file("stat", "cpu0 1 2 3 4\ncpu1 1 2 3 4\n");           // no ctxt/intr lines
    tree.proc_file("meminfo", "MemTotal: 100 kB\nMemFree: 50 kB\n");  // no Buffers/Cached
    tree.proc_file("loadavg", "garbage\n");
    tree.proc_file("diskstats", disk_text(1, 1, 1, 1));  // but no /sys/block: no clear rule
    Capture c(tree);
    const std::vector<std::string> expected{"Linux_cpu_idle", "Linux_cpu_system", "Linux_cpu_user",
                                            "Linux_meminfo_memfree"};
    EXPECT_EQ(declared(c.catalog), expected);

    testing::FakeTree empty;
    Capture none(empty);
    EXPECT_TRUE(none.catalog.counters().empty());
}

TEST(ProcfsSource, FirstPollSetsBaselinesSecondGivesExactValues) {
    Target t;
    Capture c(t.tree);
    c.start_all();

    std::vector<model::Event> out;
    const PollResult first = c.source.poll(0, out);
    EXPECT_EQ(first.watermark, 0);
    EXPECT_FALSE(first.finished);
    auto s = samples(c, out, 0);
    // No CPU shares yet (no interval); deltas start at 0; levels are reported at once.
    EXPECT_EQ(s.count({"Linux_cpu_user", 0}), 0U);
    EXPECT_EQ(s.at({"Linux_net_rx", 0}), 0);
    EXPECT_EQ(s.at({"Linux_block_rq_wr", 0}), 0);
    EXPECT_EQ(s.at({"Linux_sched_ctxt_switches", 0}), 0);
    EXPECT_EQ(s.at({"Linux_irq_total", 0}), 0);
    EXPECT_EQ(s.at({"Linux_meminfo_memused2", 0}),
              (1000000 - 600000 - 10000 - 200000 - 40000) * 1024LL);
    EXPECT_EQ(s.at({"Linux_meminfo_memfree", 0}), 600000 * 1024LL);
    EXPECT_EQ(s.at({"Linux_meminfo_cached", 0}), 240000 * 1024LL);
    EXPECT_EQ(s.at({"Linux_meminfo_bufferram", 0}), 10000 * 1024LL);
    EXPECT_EQ(s.at({"Linux_loadavg_1", 0}), 150);
    EXPECT_EQ(s.at({"Linux_loadavg_5", 0}), 75);
    EXPECT_EQ(s.at({"Linux_loadavg_15", 0}), 25);

    // 10 ms later. cpu0: user+nice 25, system+irq+softirq 15, idle+iowait 60 of 100 ticks;
    // cpu1: 3 of 4 ticks user, 1 idle.
    CpuTimes c0 = t.c0, c1 = t.c1;
    c0.user += 20, c0.nice += 5, c0.system += 10, c0.irq += 3, c0.softirq += 2;
    c0.idle += 50, c0.iowait += 10;
    c1.user += 3, c1.idle += 1;
    t.tree.proc_file("stat", stat_text(c0, c1, 5000 + 1234, 900 + 567));
    t.tree.proc_file("net/dev", net_text(7777 + 99999, 100000 + 1000, 50000 + 200));
    // vda reads 8 sectors and writes 2; its partition and loop0 change too but do not count.
    t.tree.proc_file("diskstats", disk_text(1000 + 8, 2000 + 2, 1000 + 64, 1000 + 64));
    t.tree.proc_file("loadavg", "2.00 0.80 0.26 2/100 1234\n");

    out.clear();
    const PollResult second = c.source.poll(10 * kMs, out);
    EXPECT_EQ(second.watermark, 10 * kMs);
    s = samples(c, out, 10 * kMs);
    EXPECT_EQ(s.at({"Linux_cpu_user", 0}), 2500);
    EXPECT_EQ(s.at({"Linux_cpu_system", 0}), 1500);
    EXPECT_EQ(s.at({"Linux_cpu_idle", 0}), 6000);
    EXPECT_EQ(s.at({"Linux_cpu_user", 1}), 7500);
    EXPECT_EQ(s.at({"Linux_cpu_system", 1}), 0);
    EXPECT_EQ(s.at({"Linux_cpu_idle", 1}), 2500);
    EXPECT_EQ(s.at({"Linux_sched_ctxt_switches", 0}), 1234);
    EXPECT_EQ(s.at({"Linux_irq_total", 0}), 567);
    EXPECT_EQ(s.at({"Linux_net_rx", 0}), 1000);  // lo's 99999 excluded
    EXPECT_EQ(s.at({"Linux_net_tx", 0}), 200);
    EXPECT_EQ(s.at({"Linux_block_rq_rd", 0}), 8 * 512);
    EXPECT_EQ(s.at({"Linux_block_rq_wr", 0}), 2 * 512);
    EXPECT_EQ(s.at({"Linux_loadavg_1", 0}), 200);
    EXPECT_EQ(s.size(), 3U * 2 + 4 + 3 + 2 + 2 + 2);  // nothing per-core on a system counter
    EXPECT_EQ(c.source.stats()[ProcfsStat::Samples], 2U);
    EXPECT_EQ(c.source.stats()[ProcfsStat::ReadErrors], 0U);
    EXPECT_EQ(c.source.stats()[ProcfsStat::ParseErrors], 0U);
}

TEST(ProcfsSource, EmitsOnlyEnabledCountersAndReadsOnlyTheirFiles) {
    Target t;
    Capture c(t.tree);
    c.start(only({"Linux_cpu_user", "Linux_meminfo_memfree"}));
    std::filesystem::remove(t.tree.proc() / "loadavg");  // not enabled: never read
    std::filesystem::remove(t.tree.proc() / "net/dev");
    std::vector<model::Event> out;
    c.source.poll(0, out);
    CpuTimes c0 = t.c0;
    c0.user += 1;
    c0.idle += 3;
    t.tree.proc_file("stat", stat_text(c0, t.c1, 1, 1));
    out.clear();
    c.source.poll(10 * kMs, out);
    const auto s = samples(c, out, 10 * kMs);
    const std::map<std::pair<std::string, int>, std::int64_t> expected{
        {{"Linux_cpu_user", 0}, 2500}, {{"Linux_meminfo_memfree", 0}, 600000 * 1024LL}};
    EXPECT_EQ(s, expected);  // cpu1 had no tick: no share to report
    EXPECT_EQ(c.source.stats()[ProcfsStat::ReadErrors], 0U);
}

TEST(ProcfsSource, ThreadNamesComeWithTheFirstPollOnly) {
    Target t;
    Capture c(t.tree);
    c.start(only({"Linux_meminfo_memfree"}));
    EXPECT_EQ(c.source.stats()[ProcfsStat::ThreadsNamed], 2U);
    std::vector<model::Event> out;
    c.source.poll(5 * kMs, out);
    ASSERT_EQ(out.size(), 5U);  // 2 x (ProcComm, ThreadName), then the sample
    std::map<std::int32_t, model::ProcComm> procs;
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(model::timestamp_of(out[i]), 0);
        if (const auto* p = std::get_if<model::ProcComm>(&out[i])) procs[p->tid] = *p;
    }
    ASSERT_EQ(procs.size(), 2U);
    EXPECT_EQ(procs.at(43).pid, 42);
    EXPECT_EQ(procs.at(43).image, "/usr/bin/game");
    EXPECT_EQ(procs.at(43).comm, "render");
    EXPECT_TRUE(std::holds_alternative<model::CounterSample>(out[4]));
    out.clear();
    c.source.poll(15 * kMs, out);
    EXPECT_EQ(out.size(), 1U);
}

TEST(ProcfsSource, NamesNoThreadWhenAnotherCollectorNamesWhatItFollows) {
    Target t;
    // A process that cannot be read: a scan would count it as vanished.
    t.tree.proc_file("77/task/77/comm", "ghost\n");
    Capture c(t.tree, kDefaultMaxThreads, ThreadNaming::None);
    c.start(only({"Linux_meminfo_memfree"}));
    EXPECT_EQ(c.source.stats()[ProcfsStat::ThreadsNamed], 0U);
    EXPECT_EQ(c.source.stats()[ProcfsStat::TasksVanished], 0U);
    std::vector<model::Event> out;
    c.source.poll(5 * kMs, out);
    ASSERT_EQ(out.size(), 1U);  // the sample alone
    EXPECT_TRUE(std::holds_alternative<model::CounterSample>(out[0]));
    out.clear();
    c.source.stop(20 * kMs, out);
    ASSERT_EQ(out.size(), 1U);
    EXPECT_TRUE(std::holds_alternative<model::CounterSample>(out[0]));
}

TEST(ProcfsSource, StopBeforeAnyPollStillNamesThreadsAndSamples) {
    Target t;
    Capture c(t.tree);
    c.start(only({"Linux_meminfo_memfree"}));
    std::vector<model::Event> out;
    c.source.stop(20 * kMs, out);
    ASSERT_EQ(out.size(), 5U);
    EXPECT_EQ(model::timestamp_of(out[4]), 20 * kMs);
    // A stop at the last poll's time adds nothing.
    c.start(only({"Linux_meminfo_memfree"}));
    out.clear();
    c.source.poll(30 * kMs, out);
    out.clear();
    c.source.stop(30 * kMs, out);
    EXPECT_TRUE(out.empty());
}

TEST(ProcfsSource, VanishedAndMalformedFilesAreSkippedAndCounted) {
    Target t;
    Capture c(t.tree);
    c.start_all();
    std::vector<model::Event> out;
    c.source.poll(0, out);

    // meminfo disappears (truncated and unlinked: the open descriptor sees it empty) and
    // loadavg turns to garbage; the other groups carry on.
    t.tree.proc_file("meminfo", "");
    std::filesystem::remove(t.tree.proc() / "meminfo");
    t.tree.proc_file("loadavg", "not a number\n");
    out.clear();
    c.source.poll(10 * kMs, out);
    auto s = samples(c, out, 10 * kMs);
    EXPECT_EQ(s.count({"Linux_meminfo_memfree", 0}), 0U);
    EXPECT_EQ(s.count({"Linux_loadavg_1", 0}), 0U);
    EXPECT_EQ(s.count({"Linux_net_rx", 0}), 1U);
    EXPECT_EQ(c.source.stats()[ProcfsStat::ReadErrors], 1U);
    EXPECT_EQ(c.source.stats()[ProcfsStat::ParseErrors], 1U);

    // meminfo comes back: it is reopened by path.
    t.tree.proc_file("meminfo", kMeminfo);
    out.clear();
    c.source.poll(20 * kMs, out);
    s = samples(c, out, 20 * kMs);
    EXPECT_EQ(s.at({"Linux_meminfo_memfree", 0}), 600000 * 1024LL);
    EXPECT_EQ(c.source.stats()[ProcfsStat::ReadErrors], 1U);
}

TEST(ProcfsSource, CountersGoingBackwardsEmitZeroAndRebaseline) {
    Target t;
    Capture c(t.tree);
    c.start(only({"Linux_sched_ctxt_switches", "Linux_net_rx"}));
    std::vector<model::Event> out;
    c.source.poll(0, out);
    t.tree.proc_file("stat", stat_text(t.c0, t.c1, 4000, 900));  // 5000 -> 4000
    t.tree.proc_file("net/dev", net_text(0, 10, 10));            // 100000 -> 10
    out.clear();
    c.source.poll(10 * kMs, out);
    auto s = samples(c, out, 10 * kMs);
    EXPECT_EQ(s.at({"Linux_sched_ctxt_switches", 0}), 0);
    EXPECT_EQ(s.at({"Linux_net_rx", 0}), 0);
    t.tree.proc_file("stat", stat_text(t.c0, t.c1, 4100, 900));
    t.tree.proc_file("net/dev", net_text(0, 60, 10));
    out.clear();
    c.source.poll(20 * kMs, out);
    s = samples(c, out, 20 * kMs);
    EXPECT_EQ(s.at({"Linux_sched_ctxt_switches", 0}), 100);
    EXPECT_EQ(s.at({"Linux_net_rx", 0}), 50);
}

TEST(ProcfsSource, OfflineCpuRestartsItsBaseline) {
    Target t;
    Capture c(t.tree);
    c.start(only({"Linux_cpu_user"}));
    std::vector<model::Event> out;
    c.source.poll(0, out);
    CpuTimes c0 = t.c0, c1 = t.c1;
    const auto step = [&](bool cpu1_online, model::Nanos ts) {
        c0.user += 1, c0.idle += 1, c1.user += 1, c1.idle += 3;
        std::string text = stat_text(c0, c1, 1, 1);
        if (!cpu1_online) text.erase(text.find("cpu1"), text.find("intr") - text.find("cpu1"));
        t.tree.proc_file("stat", text);
        out.clear();
        c.source.poll(ts, out);
        return samples(c, out, ts);
    };
    EXPECT_EQ(step(false, 10 * kMs).count({"Linux_cpu_user", 1}), 0U);
    auto s = step(true, 20 * kMs);  // back, but its last times are from two samples ago
    EXPECT_EQ(s.count({"Linux_cpu_user", 1}), 0U);
    EXPECT_EQ(s.at({"Linux_cpu_user", 0}), 5000);
    s = step(true, 30 * kMs);
    EXPECT_EQ(s.at({"Linux_cpu_user", 1}), 2500);
}

TEST(ProcfsSource, PollPeriodFollowsTheSampleRateWithA10msFloor) {
    model::CaptureSettings s;
    s.sample_rate = model::SampleRate::Normal;  // 1009 Hz: below the floor
    EXPECT_EQ(ProcfsSource::period_for(s), 10 * kMs);
    s.sample_rate = model::SampleRate::Low;  // 101 Hz = 9.9 ms
    EXPECT_EQ(ProcfsSource::period_for(s), 10 * kMs);
    s.sample_rate = model::SampleRate::None;
    s.live_rate_ms = 250;
    EXPECT_EQ(ProcfsSource::period_for(s), 250 * kMs);
    s.live_rate_ms = 0;
    EXPECT_EQ(ProcfsSource::period_for(s), 100 * kMs);
    s.live_rate_ms = 1;
    EXPECT_EQ(ProcfsSource::period_for(s), 10 * kMs);

    Target t;
    Capture c(t.tree);
    c.settings.sample_rate = model::SampleRate::None;
    c.settings.live_rate_ms = 500;
    c.start_all();
    EXPECT_EQ(c.source.poll_period(), 500 * kMs);
}

TEST(ProcfsSource, DescribeFillsTargetFromTheTree) {
    Target t;
    t.tree.sys_file("devices/system/cpu/present", "0-1\n");
    t.tree.proc_file("cpuinfo", "processor : 0\nCPU implementer : 0x41\nCPU part : 0xd08\n");
    ProcfsSource source(t.tree.proc(), t.tree.sys());
    model::TargetInfo info;
    info.sample_rate_hz = 1009;
    source.describe(info);
    EXPECT_EQ(info.name, "fake-host");
    EXPECT_EQ(info.cores, 2);
    EXPECT_EQ(info.cpuid, 0x41d08U);
    EXPECT_EQ(info.sample_rate_hz, 1009);  // not ours to change
    const auto names = source.core_names();
    ASSERT_EQ(names.size(), 1U);
    EXPECT_EQ(names[0].name, "Cortex-A72");
}

TEST(ProcfsSource, SmokeOnTheRealProc) {
    ProcfsSource source;
    model::CounterCatalog catalog;
    source.declare(catalog);
    for (const char* name :
         {"Linux_cpu_user", "Linux_cpu_system", "Linux_meminfo_memused2", "Linux_meminfo_memfree"})
        EXPECT_NE(catalog.find(name), nullptr) << name;

    model::CaptureSettings settings;
    model::Configuration config;
    for (const auto& n : catalog.available_names()) config.counters.push_back({n, {}, {}, {}});
    const auto counters = model::CaptureCounters::assign(catalog, config);
    ASSERT_TRUE(source.start(CaptureContext{settings, counters, 0}).ok());

    std::vector<model::Event> out;
    source.poll(0, out);
    const auto self = static_cast<std::int32_t>(::syscall(SYS_gettid));
    const bool named_self = std::any_of(out.begin(), out.end(), [&](const model::Event& e) {
        const auto* t = std::get_if<model::ThreadName>(&e);
        return t != nullptr && t->tid == self;
    });
    EXPECT_TRUE(named_self);
    const auto mem_key = counters.key("Linux_meminfo_memused2");
    ASSERT_TRUE(mem_key.has_value());
    const auto* mem = [&]() -> const model::CounterSample* {
        for (const auto& e : out)
            if (const auto* s = std::get_if<model::CounterSample>(&e); s && s->key == *mem_key)
                return s;
        return nullptr;
    }();
    ASSERT_NE(mem, nullptr);
    EXPECT_GT(mem->value, 0);

    // Long enough for every CPU's tick counts to move (10 ms per tick).
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    out.clear();
    source.poll(60 * kMs, out);
    const auto user_key = counters.key("Linux_cpu_user");
    ASSERT_TRUE(user_key.has_value());
    int cpu_samples = 0;
    for (const auto& e : out) {
        const auto* s = std::get_if<model::CounterSample>(&e);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->ts, 60 * kMs);
        if (s->key != *user_key) continue;
        ++cpu_samples;
        EXPECT_GE(s->value, 0);
        EXPECT_LE(s->value, 10000);
    }
    EXPECT_GT(cpu_samples, 0);
    EXPECT_EQ(source.stats()[ProcfsStat::ReadErrors], 0U);
    EXPECT_EQ(source.stats()[ProcfsStat::ParseErrors], 0U);
}

}  // namespace
}  // namespace apcgate::collectors::procfs
