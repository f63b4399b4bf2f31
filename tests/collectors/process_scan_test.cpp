// Naming the threads alive at capture start, on a fake /proc.
#include "collectors/procfs/process_scan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fake_tree.hpp"

namespace apcgate::collectors::procfs {
namespace {

using namespace std::string_literals;

// pid 100: a program with an exe link and two threads; pid 200: exe unreadable, cmdline names
// it; pid 2: a kernel thread (no exe, empty cmdline); pid 300: exited (no task directory).
void make_processes(const testing::FakeTree& tree) {
    tree.proc_symlink("100/exe", "/usr/bin/app");
    tree.proc_file("100/comm", "app\n");
    tree.proc_file("100/cmdline", "app\0--flag\0"s);
    tree.proc_file("100/task/100/comm", "app\n");
    tree.proc_file("100/task/101/comm", "worker\n");
    tree.proc_file("200/comm", "sh\n");
    tree.proc_file("200/cmdline", "/bin/sh\0-c\0true\0"s);
    tree.proc_file("200/task/200/comm", "sh\n");
    tree.proc_file("2/comm", "kthreadd\n");
    tree.proc_file("2/cmdline", "");
    tree.proc_file("2/task/2/comm", "kthreadd\n");
    tree.proc_file("300/comm", "gone\n");
    tree.proc_file("self/comm", "not a pid\n");
}

struct Named {
    model::ProcComm proc;
    std::string thread_name;
};

std::map<std::int32_t, Named> by_tid(const std::vector<model::Event>& events) {
    std::map<std::int32_t, Named> out;
    for (const auto& e : events) {
        if (const auto* p = std::get_if<model::ProcComm>(&e)) out[p->tid].proc = *p;
        if (const auto* t = std::get_if<model::ThreadName>(&e)) {
            EXPECT_EQ(t->ts, 0);
            out[t->tid].thread_name = t->name;
        }
    }
    return out;
}

TEST(ProcessScan, NamesEveryThreadWithItsProcessImage) {
    testing::FakeTree tree;
    make_processes(tree);
    std::vector<model::Event> events;
    ProcfsStatistics counts;
    scan_threads(tree.proc(), kDefaultMaxThreads, events, counts);
    EXPECT_EQ(events.size(), 8U);  // a ProcComm and a ThreadName per thread
    EXPECT_EQ(counts[ProcfsStat::ThreadsNamed], 4U);
    EXPECT_EQ(counts[ProcfsStat::ThreadsSkipped], 0U);
    EXPECT_EQ(counts[ProcfsStat::TasksVanished], 1U);  // pid 300

    const auto named = by_tid(events);
    ASSERT_EQ(named.size(), 4U);
    const auto& worker = named.at(101);
    EXPECT_EQ(worker.proc.pid, 100);
    EXPECT_EQ(worker.proc.tid, 101);
    EXPECT_EQ(worker.proc.image, "/usr/bin/app");
    EXPECT_EQ(worker.proc.comm, "worker");
    EXPECT_EQ(worker.proc.ts, 0);
    EXPECT_EQ(worker.proc.core, 0);
    EXPECT_EQ(worker.thread_name, "worker");
    EXPECT_EQ(named.at(100).proc.comm, "app");
    EXPECT_EQ(named.at(200).proc.image, "/bin/sh");
    EXPECT_EQ(named.at(2).proc.image, "[kthreadd]");
    EXPECT_EQ(named.at(2).thread_name, "kthreadd");
}

TEST(ProcessScan, ThreadThatExitedMidScanIsSkipped) {
    testing::FakeTree tree;
    tree.proc_file("100/comm", "app\n");
    tree.proc_file("100/task/100/comm", "app\n");
    std::filesystem::create_directories(tree.proc() / "100/task/101");  // comm already gone
    std::vector<model::Event> events;
    ProcfsStatistics counts;
    scan_threads(tree.proc(), kDefaultMaxThreads, events, counts);
    EXPECT_EQ(counts[ProcfsStat::ThreadsNamed], 1U);
    EXPECT_EQ(counts[ProcfsStat::TasksVanished], 1U);
    EXPECT_EQ(events.size(), 2U);
}

TEST(ProcessScan, StopsNamingAtTheLimitAndCountsTheRest) {
    testing::FakeTree tree;
    make_processes(tree);
    std::vector<model::Event> events;
    ProcfsStatistics counts;
    scan_threads(tree.proc(), 2, events, counts);
    EXPECT_EQ(counts[ProcfsStat::ThreadsNamed], 2U);
    EXPECT_EQ(counts[ProcfsStat::ThreadsSkipped], 2U);
    EXPECT_EQ(events.size(), 4U);
}

TEST(ProcessScan, MissingRootYieldsNothing) {
    std::vector<model::Event> events;
    ProcfsStatistics counts;
    scan_threads("/nonexistent/proc", kDefaultMaxThreads, events, counts);
    EXPECT_TRUE(events.empty());
    EXPECT_EQ(counts[ProcfsStat::ThreadsNamed], 0U);
}

TEST(ProcessImage, ExeThenCmdlineThenBracketedComm) {
    EXPECT_EQ(process_image("/usr/bin/a", "b\0c"s, "d"), "/usr/bin/a");
    EXPECT_EQ(process_image("", "b\0c"s, "d"), "b");
    EXPECT_EQ(process_image("", "", "d"), "[d]");
    EXPECT_EQ(process_image("", "\0x"s, "d"), "[d]");
}

}  // namespace
}  // namespace apcgate::collectors::procfs
