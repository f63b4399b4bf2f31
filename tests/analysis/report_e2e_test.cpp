// `apcgate report` end to end: on XRay logs converted by `apcgate convert` (span counts and time
// shares against llvm-xray account, run here), on a live recording of a program that burns CPU
// in one function (it is the hottest), on a Perf-framing recording, and on captures cut short
// or corrupted (a clear error, never a crash).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "daemon_process.hpp"
#include "tests/support/test_paths.hpp"
#include "workload_logs.hpp"

namespace apcgate::analysis_test {
namespace {

using e2e::run_apcgate;
using e2e::temp_dir;
namespace fs = std::filesystem;

const fs::path kXRay = fs::path(apcgate::test_paths::testdata_dir()) / "xray";

std::string llvm_xray() {
    for (const char* p : {"/usr/bin/llvm-xray-14", "/usr/lib/llvm-14/bin/llvm-xray"})
        if (fs::exists(p)) return p;
    return {};
}

// The JSON document of a command's output (stderr lines before it skipped).
nlohmann::json json_of(const std::string& output) {
    const auto at = output.find('{');
    if (at == std::string::npos) return {};
    return nlohmann::json::parse(output.substr(at), nullptr, false);
}

std::string run_shell(const std::string& cmd, int* status) {
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) return out;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    *status = ::pclose(p);
    return out;
}

struct Account {
    std::uint64_t count = 0;
    double sum_s = 0;
};

// llvm-xray account -format=csv: funcid,count,min,median,90%ile,99%ile,max,sum,debug,function.
std::map<std::string, Account> llvm_account(const fs::path& log, const fs::path& binary) {
    int status = 0;
    const std::string csv = run_shell(llvm_xray() + " account '" + log.string() + "' -instr_map '" +
                                          binary.string() + "' -format=csv 2>/dev/null",
                                      &status);
    EXPECT_EQ(status, 0) << csv;
    std::map<std::string, Account> out;
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);  // heading
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::string cell;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                f.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
        f.push_back(cell);
        if (f.size() < 10) continue;
        out[f[9]] = {std::stoull(f[1]), std::stod(f[7])};
    }
    return out;
}

// The report's span counts and time shares equal llvm-xray account's call counts and each
// function's share of the summed time. Shares are compared within 0.1 percentage point: account
// prints its sums with seven significant digits, and convert places each event on the capture's
// timeline in whole nanoseconds.
// The report's spans against llvm-xray account's functions: the same names and call counts,
// and each one's share of the total time within a tenth of a percentage point.
void expect_spans_match_account(const nlohmann::json& j,
                                const std::map<std::string, Account>& want) {
    double want_total = 0;
    for (const auto& [fn, a] : want) want_total += a.sum_s;
    double got_total = 0;
    for (const auto& s : j["spans"]) got_total += s["total_ns"].get<double>();
    ASSERT_EQ(j["spans"].size(), want.size()) << j["spans"].dump();
    for (const auto& s : j["spans"]) {
        const std::string fn = s["name"];
        ASSERT_TRUE(want.contains(fn)) << fn;
        EXPECT_EQ(s["count"].get<std::uint64_t>(), want.at(fn).count) << fn;
        const double got_share = s["total_ns"].get<double>() / got_total;
        EXPECT_NEAR(got_share, want.at(fn).sum_s / want_total, 0.001) << fn;
        EXPECT_NEAR(s["share"].get<double>(), got_share, 1e-9);
    }
}

TEST(ReportXRay, SpanCountsAndSharesMatchLlvmXrayAccount) {
    if (llvm_xray().empty()) GTEST_SKIP() << "llvm-xray-14 not installed";
    const fs::path binary = kXRay / "elf64-sample-o2.bin";
    for (const char* name : {"naive-log-simple.xray", "fdr-log-version-3.xray",
                             "basic-log-version-3.xray", "fdr-log-arg1-version-3.xray"}) {
        SCOPED_TRACE(name);
        const fs::path out = temp_dir("xray-report") / "run.apc";
        auto [crc, clog] = run_apcgate(
            {"convert", (kXRay / name).string(), "--binary", binary.string(), "-o", out.string()});
        ASSERT_EQ(crc, 0) << clog;
        auto [rc, text] = run_apcgate({"report", "--json", out.string()});
        ASSERT_EQ(rc, 0) << text;
        const auto j = json_of(text);
        ASSERT_TRUE(j.is_object()) << text;
        const auto want = llvm_account(kXRay / name, binary);
        ASSERT_FALSE(want.empty());
        expect_spans_match_account(j, want);
    }
}

// The same on a log clang-14's XRay runtime writes during the test (every call kept), in FDR
// mode and with one worker thread: llvm-xray 14's account stops with "Error processing record"
// on some logs whose threads' records interleave (basic mode always, FDR mode now and then),
// which would leave nothing to compare with.
TEST(ReportXRay, GeneratedLogsMatchLlvmXrayAccount) {
    if (llvm_xray().empty()) GTEST_SKIP() << "llvm-xray-14 not installed";
    auto w = xray_test::workload(false);
    if (!w) GTEST_SKIP() << "needs clang-14 and its XRay runtime";
    for (const char* mode : {"xray-fdr"}) {
        SCOPED_TRACE(mode);
        std::string error;
        const auto log = xray_test::run_workload(*w, std::string("report-") + mode, mode, 1, 50,
                                                 "func_duration_threshold_us=0", "", &error);
        ASSERT_FALSE(log.empty()) << error;
        const fs::path out = temp_dir("xray-generated") / "run.apc";
        auto [crc, clog] = run_apcgate(
            {"convert", log.string(), "--binary", w->binary.string(), "-o", out.string()});
        ASSERT_EQ(crc, 0) << clog;
        auto [rc, text] = run_apcgate({"report", "--json", out.string()});
        ASSERT_EQ(rc, 0) << text;
        const auto j = json_of(text);
        const auto want = llvm_account(log, w->binary);
        ASSERT_GE(want.size(), 3u);
        expect_spans_match_account(j, want);
    }
}

TEST(ReportXRay, ArgumentsAreNotPartOfTheSpanName) {
    const fs::path out = temp_dir("xray-args") / "run.apc";
    auto [crc, clog] =
        run_apcgate({"convert", (kXRay / "fdr-log-arg1-version-3.xray").string(), "--binary",
                     (kXRay / "elf64-sample-o2.bin").string(), "-o", out.string()});
    ASSERT_EQ(crc, 0) << clog;
    auto [rc, text] = run_apcgate({"report", "--json", out.string()});
    ASSERT_EQ(rc, 0) << text;
    const auto j = json_of(text);
    ASSERT_FALSE(j["spans"].empty()) << text;
    for (const auto& s : j["spans"])
        EXPECT_EQ(s["name"].get<std::string>().find('['), std::string::npos) << s.dump();
}

// A program that spends its time in apcgate_test_burn(): that function is the hottest, the
// burning thread has CPU time, and the folded stacks end in it.
TEST(ReportLive, TheFunctionThatBurnsCpuIsTheHottest) {
    const fs::path out = temp_dir("live-report") / "burn.apc";
    auto [rrc, rlog] = run_apcgate({"record", "-o", out.string(), "--log-level", "warn", "--",
                                    apcgate::test_paths::perf_workload(), "burn", "1000"},
                                   std::chrono::seconds(60));
    ASSERT_EQ(rrc, 0) << rlog;
    auto [rc, text] = run_apcgate({"report", "--json", out.string()});
    ASSERT_EQ(rc, 0) << text;
    const auto j = json_of(text);
    ASSERT_FALSE(j["functions"].empty()) << text;
    EXPECT_EQ(j["functions"][0]["name"], "apcgate_test_burn") << j["functions"].dump(1);
    EXPECT_GT(j["functions"][0]["self_samples"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(j["framing"], "gator");
    bool burner = false;
    for (const auto& t : j["threads"]) {
        if (t["name"] != "burner") continue;
        burner = true;
        EXPECT_GT(t["cpu_ns"].get<std::int64_t>(), 0);
        EXPECT_GT(t["samples"].get<std::uint64_t>(), 0u);
    }
    EXPECT_TRUE(burner) << j["threads"].dump(1);

    auto [frc, folded] = run_apcgate({"report", "--folded", out.string()});
    ASSERT_EQ(frc, 0) << folded;
    std::istringstream first(folded);
    std::string line;
    std::getline(first, line);  // the most frequent stack
    EXPECT_NE(line.find("main;apcgate_test_burn "), std::string::npos) << line;

    auto [trc, table] = run_apcgate({"report", "--top", "3", out.string()});
    ASSERT_EQ(trc, 0) << table;
    EXPECT_NE(table.find("apcgate_test_burn"), std::string::npos);
    auto [crc, csv] = run_apcgate({"report", "--csv", out.string()});
    ASSERT_EQ(crc, 0) << csv;
    EXPECT_NE(csv.find("\nfunctions,apcgate_test_burn,"), std::string::npos);
}

TEST(ReportLive, PerfFramingCaptureHasTheHottestFunctionAndCpuTime) {
    const fs::path out = temp_dir("perf-report") / "burn.apc";
    auto [rrc, rlog] =
        run_apcgate({"record", "--framing", "perf", "-o", out.string(), "--log-level", "warn", "--",
                     apcgate::test_paths::perf_workload(), "burn", "500"},
                    std::chrono::seconds(60));
    ASSERT_EQ(rrc, 0) << rlog;
    auto [rc, text] = run_apcgate({"report", "--json", out.string()});
    ASSERT_EQ(rc, 0) << text;
    const auto j = json_of(text);
    EXPECT_EQ(j["framing"], "perf");
    EXPECT_GT(j["samples"].get<std::uint64_t>(), 0u);
    bool burner = false;
    for (const auto& t : j["threads"])
        burner = burner || (t["name"] == "burner" && t["samples"] > 0 && t["cpu_ns"] > 0);
    EXPECT_TRUE(burner) << j["threads"].dump(1);
    // The samples' callchains resolve through the MMAP2 records of the exec'd program.
    ASSERT_FALSE(j["functions"].empty()) << text;
    EXPECT_EQ(j["functions"][0]["name"], "apcgate_test_burn") << j["functions"].dump(1);
    auto [trc, table] = run_apcgate({"report", out.string()});
    EXPECT_EQ(trc, 0) << table;
}

fs::path converted_copy(const std::string& name) {
    fs::path out = temp_dir(name) / "run.apc";
    auto [rc, log] =
        run_apcgate({"convert", (kXRay / "fdr-log-version-3.xray").string(), "--binary",
                     (kXRay / "elf64-sample-o2.bin").string(), "-o", out.string()});
    EXPECT_EQ(rc, 0) << log;
    return out;
}

TEST(ReportHostile, MissingCaptureIsARunTimeFailure) {
    auto [rc, text] = run_apcgate({"report", (temp_dir("none") / "nothing.apc").string()});
    EXPECT_EQ(rc, 1) << text;
    EXPECT_NE(text.find("captured.xml"), std::string::npos) << text;
}

TEST(ReportHostile, TruncatedCaptureIsReportedWithTheLoss) {
    const fs::path dir = converted_copy("truncated");
    const fs::path data = dir / "0000000000";
    fs::resize_file(data, fs::file_size(data) - 3);
    auto [rc, text] = run_apcgate({"report", "--json", dir.string()});
    EXPECT_EQ(rc, 0) << text;
    bool truncated = false;
    const auto j = json_of(text);
    for (const auto& l : j["losses"]) {
        if (l["name"] != "truncated_frame") continue;
        truncated = true;
        EXPECT_EQ(l["value"], 1) << text;
        EXPECT_EQ(l["severity"], "data_loss") << text;
        EXPECT_FALSE(l["detail"].get<std::string>().empty()) << text;  // the cut frame's error
    }
    EXPECT_TRUE(truncated) << text;
}

TEST(ReportHostile, CorruptLengthIsInvalidInputWithItsOffset) {
    const fs::path dir = converted_copy("corrupt");
    const fs::path data = dir / "0000000000";
    const auto size = fs::file_size(data);
    {
        std::fstream f(data, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size));
        const char bad[4] = {'\xff', '\xff', '\xff', '\xff'};  // length -1
        f.write(bad, 4);
        f.write(bad, 4);
    }
    auto [rc, text] = run_apcgate({"report", dir.string()});
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(text.find("corrupt"), std::string::npos) << text;
    EXPECT_NE(text.find("offset " + std::to_string(size)), std::string::npos) << text;
}

TEST(ReportHostile, FlippedBytesNeverCrash) {
    const fs::path dir = converted_copy("flipped");
    const fs::path data = dir / "0000000000";
    std::ifstream in(data, std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    ASSERT_GT(original.size(), 64u);
    for (std::size_t at = 0; at < original.size();
         at += std::max<std::size_t>(1, original.size() / 97)) {
        std::string bytes = original;
        bytes[at] = static_cast<char>(bytes[at] ^ 0xa5);
        std::ofstream(data, std::ios::binary | std::ios::trunc) << bytes;
        auto [rc, text] = run_apcgate({"report", "--json", dir.string()});
        EXPECT_TRUE(rc == 0 || rc == 3) << "byte " << at << ": exit " << rc << "\n" << text;
    }
}

}  // namespace
}  // namespace apcgate::analysis_test
