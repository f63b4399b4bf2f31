// `apcgate record` with the perf collector, as a user runs it, on a known workload
// (perf_workload): following a command from its exec (ping-pong switches under the right names,
// samples resolving to the burning function through its symbol table), software counter totals
// against the real `perf stat` on the same process over the same interval, an unprivileged
// user following its own command, system-wide captures, and tracefs left as it was found.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "daemon/capture/statistics_file.hpp"
#include "daemon_process.hpp"
#include "perf_capture.hpp"
#include "symbols.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::perf::testing {
namespace {

using e2e::DaemonProcess;
using e2e::run_apcgate;
using e2e::temp_dir;

const std::string kWorkload = apcgate::test_paths::perf_workload();

std::map<int, int> switches_per_tid(const CaptureFiles& c) {
    std::map<int, int> n;
    for (const auto& s : all_of<model::ActivitySwitch>(c.events)) ++n[s.tid];
    return n;
}

// The value of statistic `name` in a capture's statistics file (-1 when it is not there).
std::int64_t statistic(const fs::path& capture, const std::string& name) {
    const auto parts = daemon::read_statistics_file(capture);
    EXPECT_TRUE(parts && *parts) << capture;
    if (!parts || !*parts) return -1;
    for (const auto& part : **parts)
        for (const auto& s : part.statistics)
            if (s.name == name) return static_cast<std::int64_t>(s.value);
    return -1;
}

// The name each thread ends with: its latest Thread Name message (Proc messages carry no
// timestamp, and Name and Proc frames are flushed separately, so file order is no guide).
std::map<int, std::string> last_names(const CaptureFiles& c) {
    std::map<int, std::pair<model::Nanos, std::string>> n;
    for (const auto& t : all_of<model::ThreadName>(c.events))
        if (n.count(t.tid) == 0 || t.ts >= n[t.tid].first) n[t.tid] = {t.ts, t.name};
    std::map<int, std::string> out;
    for (const auto& [tid, v] : n) out[tid] = v.second;
    return out;
}

// Backtraces of `tid` with apcgate_test_burn of the workload binary on the stack.
std::pair<int, int> burn_samples(const CaptureFiles& c, int tid) {
    const auto range = function_file_range(kWorkload, "apcgate_test_burn");
    EXPECT_TRUE(range) << "no apcgate_test_burn symbol in " << kWorkload;
    std::map<std::int32_t, std::string> cookies;
    for (const auto& n : all_of<model::CookieName>(c.events)) cookies[n.cookie] = n.name;
    const std::string image = fs::canonical(kWorkload).string();
    int samples = 0, in_burn = 0;
    for (const auto& bt : all_of<model::Backtrace>(c.events)) {
        if (bt.tid != tid || bt.frames.empty()) continue;
        ++samples;
        // The leaf, or a caller of it: an unoptimised (sanitizer) build spends part of the loop
        // in out-of-line library calls it makes (steady_clock::now, comparisons).
        const bool burning = std::any_of(bt.frames.begin(), bt.frames.end(), [&](const auto& f) {
            return range && cookies[f.cookie] == image && range->contains(f.offset);
        });
        if (burning) ++in_burn;
    }
    return {samples, in_burn};
}

bool root() {
    return ::geteuid() == 0;
}

TEST(PerfRecord, FollowsACommandFromItsExecWithNamesSwitchesAndSamples) {
    const fs::path dir = temp_dir("perf");
    const fs::path out = dir / "cmd.apc";
    constexpr int kN = 2000;
    auto [rc, log] = run_apcgate(
        {"record", "-o", out.string(), "--sample-rate", "high", "--", kWorkload, "--out",
         (dir / "tids").string(), "pingpong", std::to_string(kN), "burn", "500"},
        std::chrono::seconds(60));
    ASSERT_EQ(rc, 0) << log;
    EXPECT_NE(log.find("command exited"), std::string::npos) << log;
    const auto tids = read_tids(dir / "tids");
    ASSERT_EQ(tids.size(), 3U) << log;
    const CaptureFiles c = read_capture(out);

    const auto sw = switches_per_tid(c);
    EXPECT_GE(sw.count(tids.at("ping")) ? sw.at(tids.at("ping")) : 0, kN);
    EXPECT_GE(sw.count(tids.at("pong")) ? sw.at(tids.at("pong")) : 0, kN);
    // Only the followed process shows up (and "not followed", -1).
    std::set<int> own{-1};
    for (const auto& l : all_of<model::ActivityLink>(c.events)) own.insert(l.tid);
    for (const auto& [tid, n] : sw)
        EXPECT_TRUE(own.count(tid) != 0) << "switch to unfollowed tid " << tid;
    const auto names = last_names(c);
    EXPECT_EQ(names.at(tids.at("ping")), "ping");
    EXPECT_EQ(names.at(tids.at("pong")), "pong");
    EXPECT_EQ(names.at(tids.at("burner")), "burner");

    const auto [samples, in_burn] = burn_samples(c, tids.at("burner"));
    EXPECT_GE(samples, 50) << log;
    EXPECT_GE(in_burn * 10, samples * 8) << in_burn << " of " << samples;

    auto [irc, json] = run_apcgate({"inspect", out.string()});
    EXPECT_EQ(irc, 0) << json;
}

// perf stat and apcgate attach to the same waiting process; it then runs and exits, and both
// report what its threads did: the totals must agree within 2 %.
TEST(PerfRecord, SoftwareCounterTotalsMatchPerfStatWithinTwoPercent) {
    const std::string perf = which("perf");
    if (perf.empty()) GTEST_SKIP() << "`perf` (Debian package linux-perf) is not installed";
    if (!root()) GTEST_SKIP() << "context switches and migrations count in the kernel: needs root";
    const fs::path dir = temp_dir("perf");
    Child w =
        spawn({kWorkload, "--wait-stdin", "pingpong", "5000", "burn", "300", "faults", "64"}, true);
    ASSERT_GT(w.pid, 0);
    DaemonProcess rec({"record", "-o", (dir / "pid.apc").string(), "--sample-rate", "low", "--pid",
                       std::to_string(w.pid)});
    const fs::path stat_out = dir / "stat.csv";
    Child ps = spawn({perf, "stat", "-x,", "-o", stat_out.string(), "-e",
                      "context-switches,cpu-migrations,page-faults,task-clock", "-p",
                      std::to_string(w.pid)});
    // Both are attached when apcgate says it records and perf holds perf_event fds.
    const auto attached = [&] {
        if (rec.log().find("recording into") == std::string::npos) return false;
        std::error_code ec;
        for (const auto& e :
             fs::directory_iterator("/proc/" + std::to_string(ps.pid) + "/fd", ec)) {
            std::error_code ec2;
            if (fs::read_symlink(e.path(), ec2).string().find("perf_event") != std::string::npos)
                return true;
        }
        return false;
    };
    for (int i = 0; i < 200 && !attached(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(attached()) << rec.log();
    ASSERT_EQ(::write(w.stdin_fd, "g", 1), 1);
    ::close(w.stdin_fd);
    EXPECT_EQ(wait_exit(w.pid), 0);
    ASSERT_EQ(rec.wait(std::chrono::seconds(30)), std::optional<int>(0)) << rec.log();
    EXPECT_NE(rec.log().find("followed processes exited"), std::string::npos) << rec.log();
    for (int i = 0; i < 100 && ::waitpid(ps.pid, nullptr, WNOHANG) == 0; ++i) {
        if (i == 60) ::kill(ps.pid, SIGINT);  // older perf waits for ^C once the target is gone
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }

    std::map<std::string, double> stat;
    std::istringstream lines(slurp(stat_out));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (f.size() >= 3 && !f[0].empty() && f[0][0] != '<') stat[f[2]] = std::stod(f[0]);
    }
    ASSERT_EQ(stat.size(), 4U) << slurp(stat_out);
    const CaptureFiles c = read_capture(dir / "pid.apc");
    const std::pair<const char*, const char*> pairs[] = {
        {"context-switches", "PERF_COUNT_SW_CONTEXT_SWITCHES"},
        {"cpu-migrations", "PERF_COUNT_SW_CPU_MIGRATIONS"},
        {"page-faults", "PERF_COUNT_SW_PAGE_FAULTS"},
        {"task-clock", "PERF_COUNT_SW_TASK_CLOCK"}};
    for (const auto& [perf_name, ours] : pairs) {
        double expected = stat[perf_name];
        if (std::string(perf_name) == "task-clock") expected *= 1e6;  // perf says msec; we count ns
        const auto got = static_cast<double>(total(c, ours));
        // Small counts (migrations: a handful) get +-2 events of slack; the rest 2 %.
        const double slack = std::max(expected * 0.02, 2.0);
        EXPECT_NEAR(got, expected, slack) << ours;
        std::printf("%-32s apcgate %.0f  perf stat %.0f\n", ours, got, expected);
    }
    EXPECT_GE(stat["context-switches"], 10000);  // the ping-pong ran
    EXPECT_GE(stat["page-faults"], 16384);       // 64 MiB of 4 KiB pages
}

TEST(PerfRecord, AnUnprivilegedUserFollowsItsOwnCommand) {
    if (!root()) GTEST_SKIP() << "needs root to switch to the nobody user";
    const std::string setpriv = which("setpriv");
    if (setpriv.empty()) GTEST_SKIP() << "no setpriv";
    const fs::path dir = temp_dir("perf_user");
    ::chmod(dir.c_str(), 0777);
    const std::vector<std::string> args = {setpriv,
                                           "--reuid=65534",
                                           "--regid=65534",
                                           "--clear-groups",
                                           apcgate::test_paths::apcgate_binary(),
                                           "record",
                                           "-o",
                                           (dir / "nobody.apc").string(),
                                           "--sample-rate",
                                           "high",
                                           "--",
                                           kWorkload,
                                           "--out",
                                           (dir / "tids_nobody").string(),
                                           "pingpong",
                                           "500",
                                           "burn",
                                           "300"};
    Child p = spawn(args);
    ASSERT_EQ(wait_exit(p.pid), 0) << "apcgate record as nobody failed";
    const auto tids = read_tids(dir / "tids_nobody");
    ASSERT_EQ(tids.size(), 3U);
    const CaptureFiles c = read_capture(dir / "nobody.apc");
    const auto sw = switches_per_tid(c);
    EXPECT_GE(sw.count(tids.at("ping")) ? sw.at(tids.at("ping")) : 0, 500);
    EXPECT_EQ(last_names(c).at(tids.at("ping")), "ping");
    const auto [samples, in_burn] = burn_samples(c, tids.at("burner"));
    EXPECT_GE(samples, 50);
    EXPECT_GE(in_burn * 10, samples * 8);
    // Kernel-only software events cannot be counted by this user, so they are not offered.
    EXPECT_EQ(c.keys.count("PERF_COUNT_SW_CONTEXT_SWITCHES"), 0U);
    EXPECT_EQ(c.keys.count("PERF_COUNT_SW_PAGE_FAULTS"), 1U);
    EXPECT_GT(total(c, "PERF_COUNT_SW_PAGE_FAULTS"), 0);
}

TEST(PerfRecord, SystemWideCaptureShowsActivityCallPathsAndCounters) {
    if (!root()) GTEST_SKIP() << "system-wide perf events need root";
    const fs::path dir = temp_dir("perf");
    Child w =
        spawn({kWorkload, "--out", (dir / "tids").string(), "pingpong", "20000", "burn", "1500"});
    const auto [rc, log] = run_apcgate(
        {"record", "-o", (dir / "sys.apc").string(), "-d", "1", "--sample-rate", "normal"},
        std::chrono::seconds(30));
    ASSERT_EQ(rc, 0) << log;
    EXPECT_EQ(wait_exit(w.pid), 0);
    const CaptureFiles c = read_capture(dir / "sys.apc");
    EXPECT_GT(all_of<model::ActivitySwitch>(c.events).size(), 100U);
    EXPECT_GT(all_of<model::ActivityLink>(c.events).size(), 0U);
    EXPECT_GT(all_of<model::Backtrace>(c.events).size(), 100U);
    EXPECT_GT(all_of<model::CookieName>(c.events).size(), 0U);
    for (const char* counter : {"PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_PAGE_FAULTS"})
        EXPECT_GT(total(c, counter), 0) << counter;
    EXPECT_EQ(total(c, "Linux_perf_lost"), 0) << "nothing lost at this rate";
    EXPECT_NE(c.events_xml.find("Linux_cpu_activity"), std::string::npos);
    // The activity counter's values: each CPU's running share per period, in 0.01 % units; the
    // workload burns a CPU for the whole capture, so some period is mostly busy.
    ASSERT_EQ(c.keys.count("Linux_cpu_activity"), 1U);
    std::int64_t busiest = -1;
    std::map<std::int32_t, std::int64_t> shares;  // per CPU
    for (const auto& v : all_of<model::CounterSample>(c.events)) {
        if (v.key != c.keys.at("Linux_cpu_activity")) continue;
        ++shares[v.core];
        EXPECT_GE(v.value, 0);
        EXPECT_LE(v.value, 10'000);
        busiest = std::max(busiest, v.value);
    }
    EXPECT_GT(busiest, 5'000);
    // One share per CPU each time the counters are read, the last read at the capture's end.
    // How often the reader gets to read in 1 s depends on the machine's load (a sanitizer build
    // beside other tests read 7 times where 100 are due), so the reads are counted, not assumed.
    const std::int64_t reads = statistic(dir / "sys.apc", "perf_counter_reads");
    EXPECT_GE(reads, 2) << "a read during the capture and one at its end";
    EXPECT_EQ(shares.size(), static_cast<std::size_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
    for (const auto& [cpu, n] : shares) EXPECT_EQ(n, reads) << "CPU " << cpu;
    auto [irc, text] = run_apcgate({"inspect", (dir / "sys.apc").string()});
    EXPECT_EQ(irc, 0) << text;
}

// How many round trips the cross-CPU ping-pong makes: APCGATE_CROSSPONG_ROUNDS, else a number
// that takes a few seconds on a small VM (waking an idle virtual CPU is slow).
long crosspong_rounds() {
    const char* env = ::getenv("APCGATE_CROSSPONG_ROUNDS");
    const long n = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
    return n > 0 ? n : 10000;
}

// Two threads on two otherwise idle CPUs hand a byte back and forth: hand-overs take a CPU
// out of idle, the switches some kernels leave out of sched:sched_switch (and of the idle
// task's switch-out record). The whole run is captured system-wide, and the timeline must
// switch each thread in at least as often as the kernel says it switched it out (a thread
// whose byte is back before it waits is not switched, so the rounds are no bound), never
// switch a CPU to the task it already runs, never run a thread on two CPUs at once, and show
// every sample of the threads on a CPU the timeline has them running on at that moment.
TEST(PerfRecord, SystemWideTimelineHasEverySwitchOfThreadsWakingIdleCpus) {
    if (!root()) GTEST_SKIP() << "system-wide perf events need root";
    cpu_set_t allowed;
    ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
    if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "needs two CPUs";
    const long rounds = crosspong_rounds();
    const fs::path dir = temp_dir("perf");
    Child w = spawn({kWorkload, "--wait-stdin", "--out", (dir / "tids").string(), "crosspong",
                     std::to_string(rounds)},
                    true);
    ASSERT_GT(w.pid, 0);
    DaemonProcess rec({"record", "-o", (dir / "x.apc").string(), "--sample-rate", "normal"});
    for (int i = 0; i < 200 && rec.log().find("recording into") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_NE(rec.log().find("recording into"), std::string::npos) << rec.log();
    ASSERT_EQ(::write(w.stdin_fd, "g", 1), 1);
    ::close(w.stdin_fd);
    EXPECT_EQ(wait_exit(w.pid), 0);
    rec.signal(SIGINT);
    ASSERT_EQ(rec.wait(std::chrono::seconds(30)), std::optional<int>(0)) << rec.log();
    const auto tids = read_tids(dir / "tids");
    for (const char* key : {"xping", "xpong", "xping-switches", "xpong-switches"})
        ASSERT_EQ(tids.count(key), 1U) << key << " missing from\n" << slurp(dir / "tids");
    const CaptureFiles c = read_capture(dir / "x.apc");
    ASSERT_EQ(total(c, "Linux_perf_lost"), 0) << "a ring overflowed: the timeline has gaps";
    // Every repair is in the capture (a per-CPU counter) and in the log, with the same count.
    ASSERT_EQ(c.keys.count("Linux_perf_repaired_switches"), 1U);
    const auto repaired = total(c, "Linux_perf_repaired_switches");
    const std::string line = "switches_repaired_from_switch_in_records = ";
    const std::string log = rec.log();
    if (repaired > 0)
        EXPECT_NE(log.find(line + std::to_string(repaired) + " "), std::string::npos) << log;
    else
        EXPECT_EQ(log.find(line), std::string::npos) << log;

    // Each switch-out the kernel counted follows a switch-in, all within the capture (the
    // threads start after it does).
    const auto sw = switches_per_tid(c);
    for (const std::string name : {"xping", "xpong"}) {
        const int tid = tids.at(name);
        EXPECT_GE(sw.count(tid) != 0 ? sw.at(tid) : 0, tids.at(name + "-switches"))
            << name << " switched in less often than the kernel switched it out";
    }

    // Walk the capture in time order (Activity and Backtrace frames are flushed separately):
    // the task each CPU runs (-1: idle) and the CPU each workload thread runs on.
    std::vector<const model::Event*> timeline;
    for (const auto& e : c.events)
        if (std::holds_alternative<model::ActivitySwitch>(e) ||
            std::holds_alternative<model::Backtrace>(e))
            timeline.push_back(&e);
    std::stable_sort(timeline.begin(), timeline.end(),
                     [](const model::Event* a, const model::Event* b) {
                         return model::timestamp_of(*a) < model::timestamp_of(*b);
                     });
    std::map<int, int> running;  // core -> tid
    // The last switches of each core, to show how a failure came about.
    std::map<int, std::vector<std::string>> recent;
    std::map<int, int> running_on;  // workload tid -> core
    // Each check: how often it failed, and the first failure.
    std::pair<int, std::string> double_switch_in, on_two_cpus, samples_off_timeline;
    int samples = 0;
    const auto problem = [&](std::pair<int, std::string>& check, const std::string& what) {
        if (check.first++ == 0) check.second = what;
    };
    const auto is_workload = [&](int tid) {
        return tid == tids.at("xping") || tid == tids.at("xpong");
    };
    for (const model::Event* e : timeline) {
        if (const auto* s = std::get_if<model::ActivitySwitch>(e)) {
            const auto was = running.find(s->core);
            if (was != running.end()) {
                if (was->second == s->tid) {
                    std::string before;
                    for (const auto& r : recent[s->core]) before += "\n  after " + r;
                    problem(double_switch_in, "core " + std::to_string(s->core) + " at " +
                                                  std::to_string(s->ts) + " switched to tid " +
                                                  std::to_string(s->tid) + ", which it ran" +
                                                  before);
                }
                if (is_workload(was->second)) running_on.erase(was->second);
            }
            running[s->core] = s->tid;
            auto& last = recent[s->core];
            last.push_back(std::to_string(s->ts) + ": tid " + std::to_string(s->tid) + " wait " +
                           std::to_string(static_cast<int>(s->wait)));
            if (last.size() > 4) last.erase(last.begin());
            if (is_workload(s->tid)) {
                if (running_on.count(s->tid) != 0 && running_on[s->tid] != s->core)
                    problem(on_two_cpus, "tid " + std::to_string(s->tid) + " at " +
                                             std::to_string(s->ts) + " runs on cores " +
                                             std::to_string(running_on[s->tid]) + " and " +
                                             std::to_string(s->core));
                running_on[s->tid] = s->core;
            }
        } else if (const auto* bt = std::get_if<model::Backtrace>(e)) {
            if (!is_workload(bt->tid)) continue;
            ++samples;
            const auto r = running.find(bt->core);
            if (r == running.end() || r->second != bt->tid)
                problem(
                    samples_off_timeline,
                    "sample of tid " + std::to_string(bt->tid) + " at " + std::to_string(bt->ts) +
                        " on core " + std::to_string(bt->core) + " while the timeline runs tid " +
                        (r == running.end() ? std::string("nothing") : std::to_string(r->second)));
        }
    }
    EXPECT_EQ(double_switch_in.first, 0) << "first: " << double_switch_in.second;
    EXPECT_EQ(on_two_cpus.first, 0) << "first: " << on_two_cpus.second;
    EXPECT_EQ(samples_off_timeline.first, 0)
        << "of " << samples << "; first: " << samples_off_timeline.second;
    for (const std::string name : {"xping", "xpong"})
        std::printf("%s: %d switch-ins on the timeline, switched out %d times, %ld rounds\n",
                    name.c_str(), sw.count(tids.at(name)) != 0 ? sw.at(tids.at(name)) : 0,
                    tids.at(name + "-switches"), rounds);
    std::printf("%d samples of them\n", samples);
}

TEST(PerfRecord, TracefsIsLeftAsItWasFound) {
    const auto tracefs_mounts = [] {
        std::istringstream in(slurp("/proc/self/mounts"));
        std::vector<std::string> out;
        for (std::string line; std::getline(in, line);)
            if (line.find(" tracefs ") != std::string::npos) out.push_back(line);
        return out;
    };
    const auto before = tracefs_mounts();
    const fs::path dir = temp_dir("perf");
    const auto [rc, log] = run_apcgate({"record", "-o", (dir / "t.apc").string(), "-d", "1"});
    ASSERT_EQ(rc, 0) << log;
    EXPECT_EQ(tracefs_mounts(), before);
}

TEST(PerfRecord, PidThatDoesNotExistIsAUsageError) {
    const auto [rc, log] =
        run_apcgate({"record", "-o", (temp_dir("perf") / "x.apc").string(), "--pid", "999999999"});
    EXPECT_EQ(rc, 2) << log;
    EXPECT_NE(log.find("no such process"), std::string::npos) << log;
}

}  // namespace
}  // namespace apcgate::collectors::perf::testing
