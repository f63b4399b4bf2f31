// The pure parsers, on text copied from a real Debian 12 machine and on malformed text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collectors/procfs/device_deltas.hpp"
#include "collectors/procfs/diskstats.hpp"
#include "collectors/procfs/loadavg.hpp"
#include "collectors/procfs/meminfo.hpp"
#include "collectors/procfs/net_dev.hpp"
#include "collectors/procfs/proc_stat.hpp"
#include "collectors/procfs/text_scan.hpp"
#include "fake_tree.hpp"

namespace apcgate::collectors::procfs {
namespace {

constexpr std::string_view kRealStat =
    "cpu  3190 0 1960 43344 424 0 47 10 0 0\n"
    "cpu0 1363 0 760 22346 25 0 4 3 0 0\n"
    "cpu1 1826 2 1200 20997 399 6 43 7 0 0\n"
    "intr 152755 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 15 0 0 0 0 49 28 0 16 1\n"
    "ctxt 297282\n"
    "btime 1795268035\n"
    "processes 4573\n"
    "procs_running 2\n"
    "procs_blocked 0\n"
    "softirq 93434 0 7606 3 669 49391 0 2 17456 0 18307\n";

TEST(ProcStat, ParsesRealText) {
    const ProcStat s = parse_proc_stat(kRealStat);
    EXPECT_EQ(s.malformed_lines, 0);
    ASSERT_EQ(s.cpus.size(), 2U);  // the "cpu" sum line is not a CPU
    EXPECT_EQ(s.cpus[0].cpu, 0);
    EXPECT_EQ(s.cpus[1].cpu, 1);
    const CpuTimes& t = s.cpus[1].times;
    EXPECT_EQ(t.user, 1826U);
    EXPECT_EQ(t.nice, 2U);
    EXPECT_EQ(t.system, 1200U);
    EXPECT_EQ(t.idle, 20997U);
    EXPECT_EQ(t.iowait, 399U);
    EXPECT_EQ(t.irq, 6U);
    EXPECT_EQ(t.softirq, 43U);
    EXPECT_EQ(t.steal, 7U);
    EXPECT_EQ(s.ctxt, 297282U);
    EXPECT_EQ(s.intr, 152755U);
}

TEST(ProcStat, OldKernelWithFourColumnsAndGapsInCpuNumbers) {
    const ProcStat s = parse_proc_stat("cpu0 1 2 3 4\ncpu3 5 6 7 8\n");
    ASSERT_EQ(s.cpus.size(), 2U);
    EXPECT_EQ(s.cpus[1].cpu, 3);
    EXPECT_EQ(s.cpus[1].times.idle, 8U);
    EXPECT_EQ(s.cpus[1].times.iowait, 0U);
    EXPECT_FALSE(s.ctxt.has_value());
    EXPECT_FALSE(s.intr.has_value());
}

TEST(ProcStat, MalformedLinesAreCountedAndSkipped) {
    const ProcStat s = parse_proc_stat(
        "cpu0 1 x 3 4\ncpu1 1 2 3\ncpuA 1 2 3 4\ncpu2 1 2 3 4 -5\ncpu3 9 9 9 9\nctxt\nintr z\n");
    EXPECT_EQ(s.malformed_lines, 6);
    ASSERT_EQ(s.cpus.size(), 1U);
    EXPECT_EQ(s.cpus[0].cpu, 3);
    EXPECT_FALSE(s.ctxt.has_value());
    EXPECT_FALSE(s.intr.has_value());
}

TEST(ProcStat, GarbageAndEmptyTextParseToNothing) {
    using namespace std::string_literals;
    const std::string garbage = "\0\xff\n\n   cpu\ncpu99999999999999999999 1 2 3 4\n"s;
    const ProcStat s = parse_proc_stat(garbage);
    EXPECT_TRUE(s.cpus.empty());
    EXPECT_EQ(s.malformed_lines, 1);
    EXPECT_TRUE(parse_proc_stat("").cpus.empty());
}

TEST(ProcStat, ReusesTheOutputStruct) {
    ProcStat s = parse_proc_stat(kRealStat);
    parse_proc_stat("cpu0 1 2 3 4\n", s);
    EXPECT_EQ(s.cpus.size(), 1U);
    EXPECT_FALSE(s.ctxt.has_value());
}

TEST(CpuUtilisation, SharesOfElapsedTicksInHundredthsOfAPercent) {
    const CpuTimes before{100, 10, 50, 1000, 5, 1, 2, 0};
    CpuTimes after = before;
    after.user += 20;
    after.nice += 5;  // user includes nice
    after.system += 10;
    after.irq += 3;  // system includes irq and softirq
    after.softirq += 2;
    after.idle += 50;
    after.iowait += 10;  // idle includes iowait
    const auto u = cpu_utilisation(before, after);
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->user, 2500);
    EXPECT_EQ(u->system, 1500);
    EXPECT_EQ(u->idle, 6000);
}

TEST(CpuUtilisation, StealCountsInTheTotalAndRoundingIsToNearest) {
    CpuTimes after;
    after.user = 1;
    after.idle = 1;
    after.steal = 1;
    const auto u = cpu_utilisation(CpuTimes{}, after);
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->user, 3333);
    EXPECT_EQ(u->idle, 3333);
    EXPECT_EQ(u->system, 0);
    after.user = 2;  // 2/4 user, 1/4 idle
    EXPECT_EQ(cpu_utilisation(CpuTimes{}, after)->user, 5000);
}

TEST(CpuUtilisation, NoElapsedTicksAndBackwardsFields) {
    const CpuTimes t{1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_FALSE(cpu_utilisation(t, t).has_value());
    CpuTimes after = t;
    after.iowait = 0;  // iowait may decrease on NO_HZ kernels: counts as 0, not negative
    after.user += 1;
    after.idle += 3;
    const auto u = cpu_utilisation(t, after);
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->user, 2500);
    EXPECT_EQ(u->idle, 7500);
}

constexpr std::string_view kRealMeminfo =
    "MemTotal:       24684084 kB\n"
    "MemFree:        24160100 kB\n"
    "MemAvailable:   24343312 kB\n"
    "Buffers:            8076 kB\n"
    "Cached:           346892 kB\n"
    "SwapCached:            0 kB\n"
    "Active(file):     159708 kB\n"
    "Slab:             111924 kB\n"
    "SReclaimable:      88488 kB\n"
    "SUnreclaim:        23436 kB\n"
    "HugePages_Total:       0\n"
    "Hugepagesize:       2048 kB\n";

TEST(Meminfo, ParsesRealTextIntoBytes) {
    const MemInfo m = parse_meminfo(kRealMeminfo);
    EXPECT_EQ(m.malformed_lines, 0);
    EXPECT_EQ(m.total, 24684084ULL * 1024);
    EXPECT_EQ(m.free, 24160100ULL * 1024);
    EXPECT_EQ(m.buffers, 8076ULL * 1024);
    EXPECT_EQ(m.cached, 346892ULL * 1024);
    EXPECT_EQ(m.sreclaimable, 88488ULL * 1024);
    const MemoryCounters c = memory_counters(m);
    EXPECT_EQ(c.used, (24684084ULL - 24160100 - 8076 - 346892 - 88488) * 1024);
    EXPECT_EQ(c.free, 24160100ULL * 1024);
    EXPECT_EQ(c.cached, (346892ULL + 88488) * 1024);
    EXPECT_EQ(c.buffers, 8076ULL * 1024);
    // The four stack to MemTotal.
    EXPECT_EQ(*c.used + *c.free + *c.cached + *c.buffers, *m.total);
}

TEST(Meminfo, MissingSReclaimableCountsAsZero) {
    const MemoryCounters c = memory_counters(
        parse_meminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 10 kB\nCached: 200 kB\n"));
    EXPECT_EQ(c.used, 690U * 1024);
    EXPECT_EQ(c.cached, 200U * 1024);
}

TEST(Meminfo, MalformedAndMissingFields) {
    const MemInfo m = parse_meminfo("MemTotal: 1000 kB\nMemFree: lots kB\nBuffers: 10 MB\n");
    EXPECT_EQ(m.malformed_lines, 2);
    const MemoryCounters c = memory_counters(m);
    EXPECT_FALSE(c.used.has_value());
    EXPECT_FALSE(c.free.has_value());
    EXPECT_FALSE(c.cached.has_value());
    EXPECT_FALSE(c.buffers.has_value());
}

TEST(Meminfo, UsedIsNeverNegative) {
    const MemoryCounters c = memory_counters(
        parse_meminfo("MemTotal: 100 kB\nMemFree: 90 kB\nBuffers: 10 kB\nCached: 10 kB\n"));
    EXPECT_EQ(c.used, 0U);
}

TEST(Loadavg, ParsesHundredths) {
    const auto l = parse_loadavg("0.23 0.16 0.06 1/86 4573\n");
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->one, 23);
    EXPECT_EQ(l->five, 16);
    EXPECT_EQ(l->fifteen, 6);
    EXPECT_EQ(parse_hundredths("12.5"), 1250);
    EXPECT_EQ(parse_hundredths("7"), 700);
    EXPECT_EQ(parse_hundredths("130.07"), 13007);
}

TEST(Loadavg, RejectsMalformed) {
    EXPECT_FALSE(parse_loadavg("").has_value());
    EXPECT_FALSE(parse_loadavg("0.23 0.16\n").has_value());
    EXPECT_FALSE(parse_loadavg("abc 0.16 0.06 1/86 4573").has_value());
    EXPECT_FALSE(parse_hundredths("1.234").has_value());
    EXPECT_FALSE(parse_hundredths("-1.00").has_value());
    EXPECT_FALSE(parse_hundredths("1.").has_value());
    EXPECT_FALSE(parse_hundredths(".5").has_value());
}

constexpr std::string_view kRealNetDev =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
    "drop fifo colls carrier compressed\n"
    "    lo:    3267      29    0    0    0     0          0         0     3267      29    0    "
    "0    0     0       0          0\n"
    "  ifb0:       0       0    0    0    0     0          0         0        0       0    0    "
    "0    0     0       0          0\n"
    "  eth0: 19614613     573    0    0    0     0          0         0    27371     323    0    "
    "0    0     0       0          0\n";

TEST(NetDev, ParsesRealText) {
    std::vector<NetDevLine> lines;
    EXPECT_EQ(parse_net_dev(kRealNetDev, lines), 0);
    ASSERT_EQ(lines.size(), 3U);
    EXPECT_EQ(lines[0].name, "lo");
    EXPECT_FALSE(counts_as_network(lines[0].name));
    EXPECT_EQ(lines[2].name, "eth0");
    EXPECT_TRUE(counts_as_network(lines[2].name));
    EXPECT_EQ(lines[2].rx_bytes, 19614613U);
    EXPECT_EQ(lines[2].tx_bytes, 27371U);
}

TEST(NetDev, OldFormatWithoutSpaceAfterColon) {
    std::vector<NetDevLine> lines;
    EXPECT_EQ(parse_net_dev("  eth0:123456789 1 0 0 0 0 0 0 987 2 0 0 0 0 0 0\n", lines), 0);
    ASSERT_EQ(lines.size(), 1U);
    EXPECT_EQ(lines[0].rx_bytes, 123456789U);
    EXPECT_EQ(lines[0].tx_bytes, 987U);
}

TEST(NetDev, MalformedLinesAreCountedOthersKept) {
    std::vector<NetDevLine> lines;
    const int bad = parse_net_dev(
        "eth0: 1 2 3\nno colon here\n: 1 0 0 0 0 0 0 0 2\nwlan0: 5 0 0 0 0 0 0 0 6 0\n", lines);
    EXPECT_EQ(bad, 3);
    ASSERT_EQ(lines.size(), 1U);
    EXPECT_EQ(lines[0].name, "wlan0");
    EXPECT_EQ(lines[0].tx_bytes, 6U);
}

constexpr std::string_view kRealDiskstats =
    "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    " 254       0 vda 29555 6622 2338034 9916 20641 8423 967176 3414 0 6464 13706 4885 32 242656 "
    "344 783 31\n"
    " 254       1 vda1 29000 6600 2300000 9900 20600 8400 967000 3400 0 6400 13700\n"
    " 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

TEST(Diskstats, ParsesRealTextOldAndNewColumnCounts) {
    std::vector<DiskStatLine> lines;
    EXPECT_EQ(parse_diskstats(kRealDiskstats, lines), 0);
    ASSERT_EQ(lines.size(), 4U);
    EXPECT_EQ(lines[1].name, "vda");
    EXPECT_EQ(lines[1].sectors_read, 2338034U);
    EXPECT_EQ(lines[1].sectors_written, 967176U);
    EXPECT_EQ(lines[2].name, "vda1");
    EXPECT_EQ(lines[2].sectors_written, 967000U);
}

TEST(Diskstats, MalformedLinesAreCountedOthersKept) {
    std::vector<DiskStatLine> lines;
    const int bad = parse_diskstats(
        "8 0 sda 1 2 3\nx 0 sdb 1 2 3 4 5 6 7 8 9 10 11\n8 16 sdc 1 2 3 4 5 6 7 8 9 10 11\n",
        lines);
    EXPECT_EQ(bad, 2);
    ASSERT_EQ(lines.size(), 1U);
    EXPECT_EQ(lines[0].name, "sdc");
    EXPECT_EQ(lines[0].sectors_read, 3U);
    EXPECT_EQ(lines[0].sectors_written, 7U);
}

TEST(DiskFilter, CountsOnlyHardwareBackedWholeDisks) {
    testing::FakeTree tree;
    DiskFilter none(tree.sys());
    EXPECT_FALSE(none.available());
    tree.sys_dir("block/vda/device");
    tree.sys_dir("block/vda/vda1");  // a partition lives under its disk
    tree.sys_dir("block/loop0");     // virtual: no device link
    tree.sys_dir("block/cciss!c0d0/device");
    DiskFilter f(tree.sys());
    EXPECT_TRUE(f.available());
    EXPECT_TRUE(f.counts("vda"));
    EXPECT_FALSE(f.counts("vda1"));
    EXPECT_FALSE(f.counts("loop0"));
    EXPECT_FALSE(f.counts("zram0"));
    EXPECT_TRUE(f.counts("cciss/c0d0"));
    EXPECT_FALSE(f.counts(".."));
    // Cached: the answer holds until forget().
    tree.sys_dir("block/loop0/device");
    EXPECT_FALSE(f.counts("loop0"));
    f.forget();
    EXPECT_TRUE(f.counts("loop0"));
}

TEST(DeviceDeltas, BaselinesNewDevicesAndRebaselinesOnBackwards) {
    DeviceDeltas d;
    d.begin_sample();
    auto p = d.update("eth0", 100, 50);
    d.end_sample();
    EXPECT_EQ(p.a, 0U);  // first sight: baseline
    EXPECT_EQ(p.b, 0U);
    d.begin_sample();
    p = d.update("eth0", 130, 40);  // tx went backwards
    d.end_sample();
    EXPECT_EQ(p.a, 30U);
    EXPECT_EQ(p.b, 0U);
    d.begin_sample();
    p = d.update("eth0", 130, 45);  // re-baselined at 40
    d.end_sample();
    EXPECT_EQ(p.b, 5U);
    d.begin_sample();  // eth0 gone
    d.end_sample();
    EXPECT_EQ(d.size(), 0U);
    d.begin_sample();
    p = d.update("eth0", 1000, 1000);  // back: a new baseline, not 870
    d.end_sample();
    EXPECT_EQ(p.a, 0U);
}

TEST(TextScan, IntegersMustBeWholeFields) {
    EXPECT_EQ(parse_u64("42"), 42U);
    EXPECT_FALSE(parse_u64("-1").has_value());
    EXPECT_FALSE(parse_u64("12a").has_value());
    EXPECT_FALSE(parse_u64("").has_value());
    EXPECT_FALSE(parse_u64("99999999999999999999999").has_value());
    EXPECT_EQ(parse_hex_u64("0xd03"), 0xd03U);
    EXPECT_EQ(parse_hex_u64("41"), 0x41U);
    std::string_view line = "  a\tbb  ";
    EXPECT_EQ(next_field(line), "a");
    EXPECT_EQ(next_field(line), "bb");
    EXPECT_EQ(next_field(line), "");
}

}  // namespace
}  // namespace apcgate::collectors::procfs
