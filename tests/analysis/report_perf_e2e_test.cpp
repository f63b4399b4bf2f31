// `apcgate report` on Perf-framing captures made here by `record --framing perf` (root only):
// symbols of a process that was running before the capture began (its MAPS text), and kernel
// functions named from the capture's KALLSYMS text. And on gatord 9.7.2's own capture
// (tests/data/gatord): its KALLSYMS text.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "daemon_process.hpp"
#include "tests/perf_framing/gatord_capture.hpp"

namespace apcgate::analysis_test {
namespace {

using e2e::run_apcgate;
using e2e::temp_dir;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kWorkload = PERF_WORKLOAD;

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

bool has_loss(const nlohmann::json& j, const std::string& what) {
    for (const auto& l : j["losses"])
        if (l["what"] == what) return true;
    return false;
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
// MAPS text of its start does.
TEST(ReportPerfFraming, AProcessRunningBeforeTheCaptureHasItsSymbols) {
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

// gatord's system-wide capture: its KALLSYMS text names kernel frames.
TEST(ReportPerfFraming, GatordsCaptureHasKernelNames) {
    const fs::path capture = test::gatord_capture_dir();
    ASSERT_FALSE(capture.empty()) << "xz could not unpack the gatord capture";
    const auto j = report_json(capture);
    ASSERT_TRUE(j.is_object());
    bool kernel_named = false;
    for (const auto& f : j["functions"])
        kernel_named = kernel_named || f["name"].get<std::string>().rfind("[kernel] ", 0) == 0;
    EXPECT_TRUE(kernel_named) << j["functions"].dump(1);
    EXPECT_FALSE(has_loss(j, "kallsyms_lines_skipped")) << j["losses"].dump(1);
}

}  // namespace
}  // namespace apcgate::analysis_test
