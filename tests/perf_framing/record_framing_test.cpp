// `apcgate record --framing perf` on the known workload (perf_workload), checked with the same
// checker inspect uses, and against `record --framing gator` on the same workload: the
// switches, samples, names and counters each framing carries for the workload's threads.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "collectors/perf/counter_specs.hpp"
#include "collectors/perf/kernel_build_id.hpp"
#include "collectors/perf/tracefs.hpp"
#include "daemon/capture/perf_capture_summary.hpp"
#include "daemon_process.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "protocol/perf_framing/frames.hpp"
#include "protocol/wire/byte_text.hpp"
#include "tests/perf/perf_capture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate {
namespace {

namespace fs = std::filesystem;
using collectors::perf::testing::read_capture;
using collectors::perf::testing::read_tids;
using e2e::run_apcgate;
using e2e::temp_dir;

const std::string kWorkload = apcgate::test_paths::perf_workload();
constexpr int kPingPongs = 2000;
// The fewest switch records a followed ping-pong thread can have: it blocks in read() once per
// round, except that a thread's first read finds the byte already there when the other thread
// got in first, and its last switch (at exit) comes after the kernel closed its events. Wakeup
// preemptions usually add more, but a busy machine (CI) can show exactly this floor.
constexpr int kMinFollowedSwitchOuts = kPingPongs - 1;

// What a Perf-type capture says about each thread of the workload.
struct PerfView {
    // By the tid switching out: sched_switch samples (system-wide) or the kernel's switch
    // records (following processes).
    std::map<int, int> switches_out;
    std::set<int> pids;                // of every sample
    std::map<int, int> clock_samples;  // CPU-clock samples, by tid
    std::map<int, std::string> names;  // COMM messages and records
    std::map<std::int32_t, std::uint64_t> counter_values;
    std::map<int, int> parent_of;  // FORK records of new processes: pid -> parent pid
};

// A process the followed one started (the kernel follows children with inherit: an ASan build's
// LeakSanitizer, for one, clones a tracer process at exit).
bool descends_from(const PerfView& v, int pid, int root) {
    for (int hops = 0; hops < 64; ++hops) {
        if (pid == root) return true;
        const auto it = v.parent_of.find(pid);
        if (it == v.parent_of.end()) return false;
        pid = it->second;
    }
    return false;
}

PerfView view_of(const daemon::PerfCaptureSummary& s, const PerfView& partial) {
    PerfView v = partial;
    for (const auto& [tid, name] : s.tally.threads) v.names[tid] = name;
    for (const auto& [key, kv] : s.tally.counter_values) v.counter_values[key] = kv.values;
    return v;
}

std::pair<daemon::PerfCaptureSummary, PerfView> read_perf(const fs::path& dir) {
    PerfView v;
    auto s = daemon::summarize_perf_capture(dir, [&](const perf_framing::RecordView& r) {
        const auto type = r.record->header.type;
        if (type == PERF_RECORD_FORK && r.record->body_pid != r.record->parent_pid)
            v.parent_of[static_cast<int>(r.record->body_pid)] =
                static_cast<int>(r.record->parent_pid);
        if (!r.record->tid) return;
        const int tid = static_cast<int>(*r.record->tid);
        if ((type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE) &&
            (r.record->header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0)
            ++v.switches_out[tid];
        if (type != PERF_RECORD_SAMPLE) return;
        if (r.record->pid) v.pids.insert(static_cast<int>(*r.record->pid));
        if (r.key == 0x7fffffff) ++v.switches_out[tid];
        if (r.key == 0x7ffffffd) ++v.clock_samples[tid];
    });
    EXPECT_TRUE(s) << s.error().to_string();
    if (!s) return {};
    return {std::move(s).value(), v};
}

bool root() {
    return ::geteuid() == 0;
}

// `record --framing perf -- CMD` follows the command (gatord's application mode): its threads'
// switches, samples and names, and nothing of other processes.
TEST(RecordPerfFraming, CarriesTheWorkloadsSwitchesSamplesNamesAndCounters) {
    if (!root()) GTEST_SKIP() << "the Perf framing's kernel samples need root";
    const fs::path dir = temp_dir("perf-framing");
    auto [rc, log] =
        run_apcgate({"record", "--framing", "perf", "-o", (dir / "p.apc").string(), "--sample-rate",
                     "high", "--", kWorkload, "--out", (dir / "tids").string(), "pingpong",
                     std::to_string(kPingPongs), "burn", "500"},
                    std::chrono::seconds(60));
    ASSERT_EQ(rc, 0) << log;
    const auto tids = read_tids(dir / "tids");
    ASSERT_EQ(tids.size(), 3U) << log;
    auto [s, partial] = read_perf(dir / "p.apc");
    for (const auto& v : s.violations) ADD_FAILURE() << v.offset << ": " << v.text;
    EXPECT_TRUE(s.valid());
    EXPECT_EQ(s.captured.type, "Perf");
    EXPECT_EQ(s.captured.info.protocol, 950);
    // The Summary comes first in our captures (gatord's put it after its shell frames).
    const auto& t = s.tally;
    ASSERT_TRUE(t.summary);
    EXPECT_EQ(t.frames_by_type.at("Summary"), 1u);
    EXPECT_GT(t.records.at("SAMPLE"), 0u);
    EXPECT_GT(t.attrs_messages.at("KEYS"), 0u);
    // The command had not exec'd when the capture started: the kernel's records of its exec
    // name it and map its program, no COMM or MAPS message.
    EXPECT_GT(t.records.count("COMM") ? t.records.at("COMM") : 0u, 0u);
    EXPECT_GT(t.records.count("MMAP2") ? t.records.at("MMAP2") : 0u, 0u);
    // Nothing lost silently: a LOST record would be counted here and logged by record.
    if (t.lost_records > 0) {
        EXPECT_NE(log.find("dropped"), std::string::npos) << log;
    }

    const PerfView v = view_of(s, partial);
    for (const char* who : {"ping", "pong"}) {
        const int tid = tids.at(who);
        EXPECT_GE(v.switches_out.count(tid) ? v.switches_out.at(tid) : 0, kMinFollowedSwitchOuts)
            << who;
        ASSERT_TRUE(v.names.count(tid)) << who;
        EXPECT_EQ(v.names.at(tid), who);
    }
    const int burner = tids.at("burner");
    EXPECT_GT(v.clock_samples.count(burner) ? v.clock_samples.at(burner) : 0, 0);
    // Only the command was followed: every sample is of its process (the burner is its main
    // thread, so its tid is the pid) or of one it started.
    EXPECT_EQ(v.pids.count(burner), 1U);
    for (const int pid : v.pids) EXPECT_TRUE(descends_from(v, pid, burner)) << pid;
    ASSERT_NE(t.summary->attribute("perf.is_system_wide"), nullptr);
    EXPECT_EQ(*t.summary->attribute("perf.is_system_wide"), "0");
    for (const auto& [key, attr] : t.attrs)
        EXPECT_TRUE(attr.flag(perf_framing::PerfAttr::kInheritBit)) << "key " << key;
}

// --pid follows running processes until they exit: their threads as they were at the start
// (named by COMM messages), threads they start later (named by the kernel's records), and their
// switches; the recording ends by itself when the processes have gone.
TEST(RecordPerfFraming, FollowsRunningProcessesUntilTheyExit) {
    if (!root()) GTEST_SKIP() << "the Perf framing's kernel samples need root";
    const fs::path dir = temp_dir("perf-framing-pid");
    auto child = collectors::perf::testing::spawn(
        {kWorkload, "--wait-stdin", "--out", (dir / "tids").string(), "pingpong",
         std::to_string(kPingPongs)},
        true);
    ASSERT_GT(child.pid, 0);
    e2e::DaemonProcess rec({"record", "--framing", "perf", "-o", (dir / "p.apc").string(), "--pid",
                            std::to_string(child.pid)});
    for (int i = 0; i < 400 && rec.log().find("recording into") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    ASSERT_NE(rec.log().find("recording into"), std::string::npos) << rec.log();
    ASSERT_EQ(::write(child.stdin_fd, "g", 1), 1);
    ::close(child.stdin_fd);
    ASSERT_EQ(rec.wait(std::chrono::seconds(60)), std::optional<int>(0)) << rec.log();
    ::waitpid(child.pid, nullptr, 0);
    EXPECT_NE(rec.log().find("followed processes exited"), std::string::npos) << rec.log();

    const auto tids = read_tids(dir / "tids");
    ASSERT_EQ(tids.size(), 2U);
    auto [s, partial] = read_perf(dir / "p.apc");
    for (const auto& v : s.violations) ADD_FAILURE() << v.offset << ": " << v.text;
    const PerfView v = view_of(s, partial);
    const std::string workload_comm = fs::path(kWorkload).filename().string().substr(0, 15);
    ASSERT_TRUE(v.names.count(child.pid));
    EXPECT_EQ(v.names.at(child.pid), workload_comm);
    for (const char* who : {"ping", "pong"}) {
        const int tid = tids.at(who);
        EXPECT_GE(v.switches_out.count(tid) ? v.switches_out.at(tid) : 0, kMinFollowedSwitchOuts)
            << who;
        ASSERT_TRUE(v.names.count(tid)) << who;
        EXPECT_EQ(v.names.at(tid), who);
    }
    for (const int pid : v.pids) EXPECT_TRUE(descends_from(v, pid, child.pid)) << pid;
}

TEST(RecordPerfFraming, TellsTheSameStoryAsTheGatorFraming) {
    if (!root()) GTEST_SKIP() << "the Perf framing's kernel samples need root";
    const fs::path dir = temp_dir("perf-vs-gator");
    // Both framings follow the workload.
    auto [grc, glog] =
        run_apcgate({"record", "--framing", "gator", "-o", (dir / "g.apc").string(),
                     "--sample-rate", "high", "--", kWorkload, "--out", (dir / "gtids").string(),
                     "pingpong", std::to_string(kPingPongs), "burn", "500"},
                    std::chrono::seconds(60));
    ASSERT_EQ(grc, 0) << glog;
    auto [prc, plog] =
        run_apcgate({"record", "--framing", "perf", "-o", (dir / "p.apc").string(), "--sample-rate",
                     "high", "--", kWorkload, "--out", (dir / "ptids").string(), "pingpong",
                     std::to_string(kPingPongs), "burn", "500"},
                    std::chrono::seconds(60));
    ASSERT_EQ(prc, 0) << plog;
    const auto gt = read_tids(dir / "gtids");
    const auto pt = read_tids(dir / "ptids");
    ASSERT_EQ(gt.size(), 3U);
    ASSERT_EQ(pt.size(), 3U);

    const auto g = read_capture(dir / "g.apc");
    std::map<int, int> g_switches, g_samples;
    // A thread's name is its ThreadName with the latest time: names go in per-core frames,
    // each stream in time order but the frames of two cores in whichever order they were sent
    // (a rename on one core can be written before the first name on another).
    std::map<int, std::pair<model::Nanos, std::string>> g_named;
    for (const auto& e : g.events) {
        if (const auto* sw = std::get_if<model::ActivitySwitch>(&e)) ++g_switches[sw->tid];
        if (const auto* bt = std::get_if<model::Backtrace>(&e)) ++g_samples[bt->tid];
        if (const auto* n = std::get_if<model::ThreadName>(&e)) {
            auto [it, added] = g_named.try_emplace(n->tid, n->ts, n->name);
            if (!added && n->ts >= it->second.first) it->second = {n->ts, n->name};
        }
    }
    auto [s, partial] = read_perf(dir / "p.apc");
    const PerfView p = view_of(s, partial);
    EXPECT_TRUE(s.valid());
    // Per role: both framings name the thread alike, see at least every ping-pong switch, and
    // sample the burner.
    for (const char* who : {"ping", "pong", "burner"}) {
        const int gtid = gt.at(who), ptid = pt.at(who);
        EXPECT_EQ(g_named[gtid].second, p.names.count(ptid) ? p.names.at(ptid) : "") << who;
        if (std::string(who) != "burner") {
            EXPECT_GE(g_switches[gtid], kPingPongs) << who;
            EXPECT_GE(p.switches_out.count(ptid) ? p.switches_out.at(ptid) : 0,
                      kMinFollowedSwitchOuts)
                << who;
        }
    }
    EXPECT_GT(g_samples[gt.at("burner")], 0);
    EXPECT_GT(p.clock_samples.count(pt.at("burner")) ? p.clock_samples.at(pt.at("burner")) : 0, 0);
    // Every counter with values in the v6.8 capture has values in the Perf one.
    std::set<model::CounterKey> g_keys;
    for (const auto& e : g.events)
        if (const auto* c = std::get_if<model::CounterSample>(&e)) g_keys.insert(c->key);
    std::map<std::string, model::CounterKey> p_keys;
    for (const auto& c : s.captured.counters) p_keys[c.type] = c.key;
    for (const auto& [name, gkey] : g.keys) {
        if (g_keys.count(gkey) == 0 || p_keys.count(name) == 0) continue;
        // The Perf framing carries lost records themselves (LOST), not a counter of them, and
        // CPU activity as the sched_switch samples compared above.
        if (name == collectors::perf::kLostCounter || name == collectors::perf::kActivityCounter)
            continue;
        EXPECT_GT(
            p.counter_values.count(p_keys.at(name)) ? p.counter_values.at(p_keys.at(name)) : 0u, 0u)
            << name << " has values in the gator framing only";
    }
}

TEST(RecordPerfFraming, ACaptureKilledWithSigkillIsValidUpToItsLastFlush) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-kill");
    e2e::DaemonProcess rec({"record", "--framing", "perf", "-o", (dir / "k.apc").string()});
    // Wait until a flush after the start-up frames has reached the file, then kill without
    // warning.
    const fs::path data = dir / "k.apc" / "0000000000";
    std::uintmax_t first = 0;
    for (int i = 0; i < 400; ++i) {
        std::error_code ec;
        const auto size = fs::file_size(data, ec);
        if (!ec && size > 0 && first == 0) first = size;  // the start-up frames
        if (!ec && first > 0 && size > first) break;      // a later flush
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ASSERT_GT(first, 0u) << rec.log();
    rec.signal(SIGKILL);
    ASSERT_TRUE(rec.wait());
    auto s = daemon::summarize_perf_capture(dir / "k.apc");
    ASSERT_TRUE(s) << s.error().to_string();
    for (const auto& v : s->violations) ADD_FAILURE() << v.offset << ": " << v.text;
    EXPECT_NE(s->end, apc::StreamEnd::Corrupt);
    ASSERT_TRUE(s->tally.summary);
    EXPECT_GT(s->tally.attrs_messages.count("PEA") ? s->tally.attrs_messages.at("PEA") : 0u, 0u);
}

// A SIGINT that arrives while the capture is set up ends it once begun, in this framing too:
// the command is never let run and the capture is whole (sent while blocked, so it arrives at
// the daemon's first unblocking).
TEST(RecordPerfFraming, SigintDuringSetUpEndsTheCaptureAtItsStartAndTheCommandNeverRuns) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-early");
    std::optional<e2e::DaemonProcess> rec;
    {
        const e2e::SignalBlocked blocked(SIGINT);
        rec.emplace(std::vector<std::string>{"record", "--framing", "perf", "-o",
                                             (dir / "e.apc").string(), "--", "/usr/bin/touch",
                                             (dir / "ran").string()});
        rec->signal(SIGINT);
    }
    ASSERT_EQ(rec->wait(std::chrono::seconds(30)), std::optional<int>(0)) << rec->log();
    EXPECT_NE(rec->log().find("interrupted (SIGINT)"), std::string::npos) << rec->log();
    EXPECT_FALSE(fs::exists(dir / "ran"));
    auto s = daemon::summarize_perf_capture(dir / "e.apc");
    ASSERT_TRUE(s) << s.error().to_string();
    for (const auto& v : s->violations) ADD_FAILURE() << v.offset << ": " << v.text;
    EXPECT_EQ(s->end, apc::StreamEnd::Clean);
}

std::string file_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// FORMAT carries each opened tracepoint's format file as this kernel wrote it, and
// KERNEL_BUILD_ID the build id of /sys/kernel/notes, as gatord sends them.
TEST(RecordPerfFraming, FormatsAndTheKernelBuildIdAreThisKernelsOwn) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-formats");
    auto [rc, log] =
        run_apcgate({"record", "--framing", "perf", "-o", (dir / "f.apc").string(), "-d", "1"});
    ASSERT_EQ(rc, 0) << log;
    const std::string data = file_text(dir / "f.apc" / "0000000000");
    const std::span<const std::uint8_t> bytes = wire::bytes_of(data);
    std::vector<std::string> formats;
    std::vector<std::vector<std::uint8_t>> build_ids;
    std::set<std::uint64_t> tracepoints;  // configs of tracepoint PEAs
    apc::CaptureSplitter split(bytes);
    while (auto raw = split.next()) {
        auto f = perf_framing::decode_perf_frame(raw->body, raw->body_offset);
        ASSERT_TRUE(f) << f.error().to_string();
        const auto* attrs = std::get_if<perf_framing::PerfAttrsFrame>(&f->body);
        if (attrs == nullptr) continue;
        for (const auto& m : attrs->messages) {
            if (const auto* t = std::get_if<perf_framing::TextMessage>(&m.body);
                t != nullptr && m.code == perf_framing::AttrsCode::Format)
                formats.emplace_back(t->text);
            if (const auto* b = std::get_if<perf_framing::BuildIdMessage>(&m.body))
                build_ids.emplace_back(b->id.begin(), b->id.end());
            if (const auto* p = std::get_if<perf_framing::PeaMessage>(&m.body);
                p != nullptr && p->attr.type == PERF_TYPE_TRACEPOINT)
                tracepoints.insert(p->attr.config);
        }
    }
    // One FORMAT per tracepoint opened.
    EXPECT_EQ(formats.size(), tracepoints.size());
    std::string tracefs = collectors::perf::tracefs_in_mounts(file_text("/proc/self/mounts"));
    if (tracefs.empty() && fs::exists("/sys/kernel/tracing/events"))
        tracefs = "/sys/kernel/tracing";
    if (!tracefs.empty() && !tracepoints.empty()) {
        const std::string kernels =
            file_text(fs::path(tracefs) / "events/sched/sched_switch/format");
        ASSERT_FALSE(kernels.empty());
        EXPECT_NE(std::find(formats.begin(), formats.end(), kernels), formats.end())
            << "no FORMAT is the kernel's sched_switch format file";
    }
    const auto id = collectors::perf::kernel_build_id("/sys");
    if (id) {
        ASSERT_EQ(build_ids.size(), 1U);
        EXPECT_EQ(build_ids.front(), *id);
    } else {
        EXPECT_TRUE(build_ids.empty());
    }
}

// `inspect --dump` of our own capture: a line per frame and per record, as many as the checker
// counts, each record's with its cpu, time and key.
TEST(RecordPerfFraming, InspectDumpsEveryFrameAndRecord) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-dump");
    auto [rc, log] =
        run_apcgate({"record", "--framing", "perf", "-o", (dir / "d.apc").string(), "-d", "1"});
    ASSERT_EQ(rc, 0) << log;
    auto s = daemon::summarize_perf_capture(dir / "d.apc");
    ASSERT_TRUE(s) << s.error().to_string();
    auto [drc, dumped] = run_apcgate({"inspect", "--dump", (dir / "d.apc").string()});
    ASSERT_EQ(drc, 0) << dumped.substr(0, 2000);
    std::set<std::string> record_kinds;
    std::uint64_t records_in_tally = 0;
    for (const auto& [kind, n] : s->tally.records) {
        record_kinds.insert(kind);
        records_in_tally += n;
    }
    std::uint64_t frames = 0, records = 0;
    std::istringstream in(dumped);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string offset, word;
        words >> offset >> word;
        if (word == "frame") {
            ++frames;
        } else if (record_kinds.count(word) != 0 && line.find(" key=") != std::string::npos) {
            ++records;
            EXPECT_NE(line.find(" cpu="), std::string::npos) << line;
            EXPECT_NE(line.find(" time="), std::string::npos) << line;
        }
    }
    EXPECT_EQ(frames, s->tally.frames);
    EXPECT_EQ(records, records_in_tally);
}

// Every "NAME ID" line of a workload's --out file with this NAME.
std::vector<int> noted(const fs::path& file, const std::string& what) {
    std::ifstream in(file);
    std::vector<int> out;
    std::string name;
    int id = 0;
    while (in >> name >> id)
        if (name == what) out.push_back(id);
    return out;
}

// Tasks that start after the capture began get no COMM message: the side-band event's COMM
// (with exec), FORK and MMAP2 records name them and map their program, as in gatord's captures.
TEST(RecordPerfFraming, TasksStartedDuringTheCaptureAreNamedByTheKernelsRecords) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-names");
    e2e::DaemonProcess rec({"record", "--framing", "perf", "-o", (dir / "n.apc").string()});
    for (int i = 0; i < 400 && rec.log().find("recording into") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    ASSERT_NE(rec.log().find("recording into"), std::string::npos) << rec.log();
    // A process, two threads that keep its name, and a child that execs another program: all
    // after the capture began.
    const std::string cmd =
        "'" + kWorkload + "' --out '" + (dir / "tids").string() + "' threads 2 exec /bin/true";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    rec.signal(SIGINT);
    ASSERT_EQ(rec.wait(std::chrono::seconds(20)), std::optional<int>(0)) << rec.log();

    const auto threads = noted(dir / "tids", "thread");
    const auto children = noted(dir / "tids", "child");
    ASSERT_EQ(threads.size(), 2U);
    ASSERT_EQ(children.size(), 1U);
    std::map<int, std::vector<std::string>> mapped;  // MMAP2 file names by pid
    auto s = daemon::summarize_perf_capture(dir / "n.apc", [&](const perf_framing::RecordView& r) {
        if (r.record->header.type == PERF_RECORD_MMAP2)
            mapped[static_cast<int>(r.record->body_pid)].emplace_back(r.record->text);
    });
    ASSERT_TRUE(s) << s.error().to_string();
    for (const auto& v : s->violations) ADD_FAILURE() << v.offset << ": " << v.text;
    const auto& names = s->tally.threads;
    // The kernel's comm is the program's file name, cut to 15 characters.
    const std::string workload_comm = fs::path(kWorkload).filename().string().substr(0, 15);
    for (const int tid : threads) {
        ASSERT_TRUE(names.count(tid)) << "thread " << tid << " has no name";
        EXPECT_EQ(names.at(tid), workload_comm) << "thread " << tid;
    }
    const int child = children.front();
    ASSERT_TRUE(names.count(child)) << "child " << child << " has no name";
    EXPECT_EQ(names.at(child), "true");
    ASSERT_TRUE(mapped.count(child)) << "no MMAP2 record for child " << child;
    EXPECT_TRUE(std::any_of(mapped.at(child).begin(), mapped.at(child).end(),
                            [](const std::string& f) { return f.ends_with("/true"); }))
        << "the child's program is not among its mappings";
}

// Text-form annotations are the seed's Annotate frames; the Perf framing has none. They must
// not vanish unannounced.
TEST(RecordPerfFraming, AnnotationsWithoutAPerfFrameAreReported) {
    if (!root()) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    const fs::path dir = temp_dir("perf-framing-annotate");
    const fs::path fifo = dir / "annotate";
    e2e::DaemonProcess rec({"record", "--framing", "perf", "-o", (dir / "a.apc").string(), "-d",
                            "2", "--annotate-fifo", fifo.string(), "--annotate-socket-name",
                            "apcgate-test-perf-framing-" + std::to_string(::getpid()),
                            "--annotate-tcp-port", "0"});
    for (int i = 0; i < 200 && rec.log().find("recording into") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    ASSERT_NE(rec.log().find("recording into"), std::string::npos) << rec.log();
    {
        std::ofstream out(fifo);
        out << "phase one\n" << std::flush;
    }
    ASSERT_EQ(rec.wait(std::chrono::seconds(20)), std::optional<int>(0)) << rec.log();
    EXPECT_NE(rec.log().find("perf_framing_events_without_frame = 1 (data_loss)"),
              std::string::npos)
        << rec.log();
    // And the capture keeps it: inspect tells later what the recording could not carry.
    const auto [rc, text] = e2e::run_apcgate({"inspect", (dir / "a.apc").string()});
    EXPECT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("perf_framing: perf_framing_events_without_frame = 1 (data_loss)"),
              std::string::npos)
        << text;
}

}  // namespace
}  // namespace apcgate
