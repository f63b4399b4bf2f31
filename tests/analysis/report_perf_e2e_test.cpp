// `apcgate report` on Perf-framing captures made here by `record --framing perf` (root only):
// CPU time from the kernel's switch records against what the kernel charged the process
// (getrusage), spans from the External frames' annotation connections equal to the gator
// framing's for the same connection, symbols of a process that was running before the capture
// began (its MAPS text), and kernel functions named from the capture's KALLSYMS text. And on
// gatord 9.7.2's own capture (tests/data/gatord): sched_switch samples, kallsyms, MAPS.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "annotate_client.hpp"
#include "daemon_process.hpp"
#include "tests/perf_framing/gatord_capture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::analysis_test {
namespace {

using e2e::run_apcgate;
using e2e::temp_dir;
namespace fs = std::filesystem;
namespace client = annotate_test;
using namespace std::chrono_literals;

const std::string kWorkload = apcgate::test_paths::perf_workload();

bool root() {
    return ::geteuid() == 0;
}

nlohmann::json report_json(const fs::path& capture) {
    auto [rc, text] = run_apcgate({"report", "--json", capture.string()});
    EXPECT_EQ(rc, 0) << text;
    const auto at = text.find('{');
    if (at == std::string::npos) return {};
    return nlohmann::json::parse(text.substr(at), nullptr, false);
}

// "NAME NUMBER" lines the workload writes (--out).
std::map<std::string, long> read_notes(const fs::path& file) {
    std::ifstream in(file);
    std::map<std::string, long> out;
    std::string name;
    long n = 0;
    while (in >> name >> n) out[name] = n;
    return out;
}

const nlohmann::json* row(const nlohmann::json& rows, const char* key, long value) {
    for (const auto& r : rows)
        if (r[key].get<long>() == value) return &r;
    return nullptr;
}

bool has_loss(const nlohmann::json& j, const std::string& what) {
    for (const auto& l : j["losses"])
        if (l["name"] == what) return true;
    return false;
}

// The burner's CPU time, from its switch records, is what the kernel charged its process; the
// ping and pong threads, which block on a pipe most of the time, wait.
TEST(ReportPerfFraming, CpuTimeMatchesWhatTheKernelCharged) {
    if (!root()) GTEST_SKIP() << "perf events for a recording need root here";
    const fs::path dir = temp_dir("perf-cpu");
    const fs::path out = dir / "burn.apc";
    auto [rrc, rlog] = run_apcgate(
        {"record", "--framing", "perf", "-o", out.string(), "--log-level", "warn", "--", kWorkload,
         "--out", (dir / "notes").string(), "pingpong", "300", "burn", "500", "usage"},
        60s);
    ASSERT_EQ(rrc, 0) << rlog;
    const auto notes = read_notes(dir / "notes");
    ASSERT_TRUE(notes.contains("burner") && notes.contains("usage-us") && notes.contains("ping"))
        << rlog;
    const auto j = report_json(out);
    ASSERT_TRUE(j.is_object());
    const auto* process = row(j["processes"], "pid", notes.at("burner"));
    ASSERT_NE(process, nullptr) << j["processes"].dump(1);
    const double charged_ns = static_cast<double>(notes.at("usage-us")) * 1000.0;
    const double cpu_ns = (*process)["cpu_ns"].get<double>();
    // It spun for 500 ms of wall time; on a busy machine it ran for less of it.
    ASSERT_GT(charged_ns, 1e8);
    // Within a tenth: the report's time starts at the exec while rusage counts from the fork,
    // and ends at the exit while rusage was read just before.
    EXPECT_NEAR(cpu_ns, charged_ns, 0.1 * charged_ns) << j["processes"].dump(1);
    const auto* burner = row(j["threads"], "tid", notes.at("burner"));
    ASSERT_NE(burner, nullptr);
    EXPECT_GT((*burner)["cpu_ns"].get<double>(), 0.8 * charged_ns);
    std::int64_t by_core = 0;
    for (const auto& [core, ns] : (*burner)["cpu_ns_by_core"].items())
        by_core += ns.get<std::int64_t>();
    EXPECT_EQ(by_core, (*burner)["cpu_ns"].get<std::int64_t>());
    const auto* ping = row(j["threads"], "tid", notes.at("ping"));
    ASSERT_NE(ping, nullptr) << j["threads"].dump(1);
    EXPECT_GT((*ping)["wait_ns"]["other"].get<std::int64_t>(), 0) << ping->dump();
    for (const auto& n : j["notes"])
        EXPECT_EQ(n.get<std::string>().find("no context switches"), std::string::npos) << n;
}

// An application as Arm's library behaves: the parent connection first (retried while the
// recorder starts), then its data connection, which it writes and closes.
bool annotate(const std::string& name, const client::Bytes& bytes) {
    client::Conn parent;
    for (int i = 0; i < 400 && !parent.ok(); ++i) {
        parent = client::Conn(client::connect_abstract(name + "-parent"));
        if (!parent.ok()) std::this_thread::sleep_for(25ms);
    }
    if (!parent.ok()) return false;
    client::Conn data(client::connect_abstract(name));
    if (!data.ok()) {
        if (!parent.read_byte(30s)) return false;
        data = client::Conn(client::connect_abstract(name));
    }
    return data.ok() && data.send_in_pieces(bytes, {7, 300});
}

// Spans on two channels and markers, one connection; every time exact, so both framings must
// give the same numbers.
client::Bytes annotations() {
    client::Bytes b = client::handshake(static_cast<std::uint32_t>(::gettid()),
                                        static_cast<std::uint32_t>(::getpid()));
    const auto add = [&](const client::Bytes& m) { b.insert(b.end(), m.begin(), m.end()); };
    const std::int64_t t = client::monotonic_raw_ns();
    for (std::int64_t i = 0; i < 5; ++i) {
        add(client::string_msg(t + i * 2'000'000, 1, "work"));
        add(client::string_msg(t + i * 2'000'000 + 1'000'000, 1, ""));
    }
    for (std::int64_t i = 0; i < 3; ++i) {
        add(client::string_msg(t + 20'000'000 + i * 3'000'000, 2, "io [42]"));
        add(client::string_msg(t + 20'000'000 + i * 3'000'000 + 2'000'000, 2, ""));
    }
    for (int i = 0; i < 3; ++i) add(client::marker_msg(t + 40'000'000 + i, "tick"));
    return b;
}

nlohmann::json spans_recorded(const std::string& framing) {
    const fs::path dir = temp_dir("perf-spans-" + framing);
    const std::string name = client::unique_socket_name("report-" + framing);
    e2e::DaemonProcess rec({"record", "--framing", framing, "-o", (dir / "a.apc").string(), "-d",
                            "2", "--annotate-socket-name", name, "--annotate-tcp-port",
                            std::to_string(client::free_port_pair()), "--annotate-fifo",
                            (dir / "fifo").string(), "--log-level", "warn"});
    EXPECT_TRUE(annotate(name, annotations())) << rec.log();
    EXPECT_EQ(rec.wait(30s), std::optional<int>(0)) << rec.log();
    return report_json(dir / "a.apc");
}

TEST(ReportPerfFraming, SpansFromExternalFramesEqualTheGatorFramings) {
    if (!root()) GTEST_SKIP() << "perf events for a recording need root here";
    const auto perf = spans_recorded("perf");
    const auto gator = spans_recorded("gator");
    ASSERT_TRUE(perf.is_object() && gator.is_object());
    EXPECT_EQ(perf["framing"], "perf");
    ASSERT_EQ(perf["spans"].size(), 2U) << perf.dump(1);
    std::map<std::string, std::pair<std::uint64_t, std::int64_t>> want = {{"work", {5, 5'000'000}},
                                                                          {"io", {3, 6'000'000}}};
    for (const auto& s : perf["spans"]) {
        const std::string n = s["name"];
        ASSERT_TRUE(want.contains(n)) << n;
        EXPECT_EQ(s["count"].get<std::uint64_t>(), want[n].first) << n;
        EXPECT_EQ(s["total_ns"].get<std::int64_t>(), want[n].second) << n;
    }
    EXPECT_EQ(perf["spans"], gator["spans"]);
    EXPECT_EQ(perf["instants"], gator["instants"]);
    ASSERT_EQ(perf["instants"].size(), 1U) << perf.dump(1);
    EXPECT_EQ(perf["instants"][0]["name"], "tick");
    EXPECT_EQ(perf["instants"][0]["count"], 3);
    EXPECT_FALSE(has_loss(perf, "annotation_connections_broken"));
}

pid_t spawn(const std::vector<std::string>& args) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));  // NOLINT
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

// A process burning CPU before the capture begins: no MMAP2 record maps its program, only the
// MAPS text of its start does, and no switch says when it started running.
TEST(ReportPerfFraming, AProcessRunningBeforeTheCaptureHasItsSymbolsAndCpuTime) {
    if (!root()) GTEST_SKIP() << "perf events for a recording need root here";
    const fs::path dir = temp_dir("perf-running");
    const pid_t pid = spawn({kWorkload, "--out", (dir / "notes").string(), "burn", "2500"});
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 200 && !read_notes(dir / "notes").contains("burner"); ++i)
        std::this_thread::sleep_for(10ms);
    auto [rrc, rlog] = run_apcgate({"record", "--framing", "perf", "-o", (dir / "r.apc").string(),
                                    "--log-level", "warn", "--pid", std::to_string(pid)},
                                   60s);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_EQ(rrc, 0) << rlog;
    const auto j = report_json(dir / "r.apc");
    ASSERT_TRUE(j.is_object());
    ASSERT_FALSE(j["functions"].empty()) << j.dump(1);
    EXPECT_EQ(j["functions"][0]["name"], "apcgate_test_burn") << j["functions"].dump(1);
    const auto* burner = row(j["threads"], "tid", pid);
    ASSERT_NE(burner, nullptr) << j["threads"].dump(1);
    // It spun from before the start to its exit, never blocking: it was running or waiting
    // for a CPU (preempted) all through the capture, however busy the machine.
    const double cpu = (*burner)["cpu_ns"].get<double>();
    EXPECT_GT(cpu, 0.0) << burner->dump();
    EXPECT_GT(cpu + (*burner)["wait_ns"]["contention"].get<double>(),
              0.8 * j["duration_ns"].get<double>())
        << burner->dump() << " of " << j["duration_ns"];
}

// Page faults on fresh memory spend their time in the kernel: its frames are named from the
// capture's KALLSYMS text.
TEST(ReportPerfFraming, KernelFunctionsAreNamedFromKallsyms) {
    if (!root()) GTEST_SKIP() << "perf events for a recording need root here";
    const fs::path dir = temp_dir("perf-kernel");
    auto [rrc, rlog] = run_apcgate({"record", "--framing", "perf", "-o", (dir / "k.apc").string(),
                                    "--log-level", "warn", "--", kWorkload, "faults", "512"},
                                   60s);
    ASSERT_EQ(rrc, 0) << rlog;
    const auto j = report_json(dir / "k.apc");
    ASSERT_TRUE(j.is_object());
    std::uint64_t named = 0;
    for (const auto& f : j["functions"]) {
        const std::string n = f["name"];
        if (n.rfind("[kernel] ", 0) == 0) named += f["self_samples"].get<std::uint64_t>();
    }
    EXPECT_GT(named, 0U) << j["functions"].dump(1);
    auto [frc, folded] = run_apcgate({"report", "--folded", (dir / "k.apc").string()});
    ASSERT_EQ(frc, 0) << folded;
    EXPECT_NE(folded.find("[kernel] "), std::string::npos) << folded.substr(0, 2000);
}

// gatord's system-wide capture: its sched_switch samples (decoded with its FORMAT text) give
// CPU time, never more per core than the capture lasted; its KALLSYMS text names kernel frames;
// its ftrace External stream is not taken for a broken annotation connection.
TEST(ReportPerfFraming, GatordsCaptureHasCpuTimeAndKernelNames) {
    const fs::path& capture = test::gatord_capture_dir();
    ASSERT_FALSE(capture.empty()) << "xz could not unpack the gatord capture";
    const auto j = report_json(capture);
    ASSERT_TRUE(j.is_object());
    const auto duration = j["duration_ns"].get<std::int64_t>();
    ASSERT_GT(duration, 0);
    std::map<std::string, std::int64_t> per_core;
    std::int64_t total = 0;
    for (const auto& t : j["threads"]) {
        total += t["cpu_ns"].get<std::int64_t>();
        for (const auto& [core, ns] : t["cpu_ns_by_core"].items())
            per_core[core] += ns.get<std::int64_t>();
    }
    EXPECT_GT(total, duration / 10) << j["threads"].dump(1);
    for (const auto& [core, ns] : per_core) EXPECT_LE(ns, duration) << "core " << core;
    bool kernel_named = false;
    for (const auto& f : j["functions"])
        kernel_named = kernel_named || f["name"].get<std::string>().rfind("[kernel] ", 0) == 0;
    EXPECT_TRUE(kernel_named) << j["functions"].dump(1);
    EXPECT_FALSE(has_loss(j, "annotation_connections_broken")) << j["losses"].dump(1);
    EXPECT_FALSE(has_loss(j, "switch_samples_undecodable")) << j["losses"].dump(1);
    EXPECT_FALSE(has_loss(j, "kallsyms_lines_skipped")) << j["losses"].dump(1);
}

// Flipped bytes anywhere in a Perf-framing capture (its MAPS, KALLSYMS and FORMAT texts, its
// records, its External frames) give a report or a clear error, never a crash.
TEST(ReportPerfFraming, FlippedBytesNeverCrash) {
    const fs::path& original = test::gatord_capture_dir();
    ASSERT_FALSE(original.empty()) << "xz could not unpack the gatord capture";
    const fs::path dir = temp_dir("perf-flipped") / "g.apc";
    fs::create_directories(dir);
    fs::copy_file(original / "captured.xml", dir / "captured.xml");
    const auto bytes = test::read_bytes(original / "0000000000");
    ASSERT_GT(bytes.size(), 1000U);
    for (std::size_t at = 0; at < bytes.size(); at += bytes.size() / 23) {
        auto flipped = bytes;
        flipped[at] ^= 0xa5;
        std::ofstream(dir / "0000000000", std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(flipped.data()),  // NOLINT
                   static_cast<std::streamsize>(flipped.size()));
        auto [rc, text] = run_apcgate({"report", "--json", dir.string()});
        EXPECT_TRUE(rc == 0 || rc == 3) << "byte " << at << ": exit " << rc << "\n"
                                        << text.substr(0, 2000);
    }
}

}  // namespace
}  // namespace apcgate::analysis_test
