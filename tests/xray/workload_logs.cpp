#include "workload_logs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "tests/support/test_paths.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {

namespace {

// One directory per test process, removed when the process ends.
struct ScratchDir {
    std::filesystem::path path;
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        path = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
               ("apcgate-xray-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

std::filesystem::path scratch_dir() {
    static ScratchDir dir;
    return dir.path;
}

std::uint64_t le64(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
    return v;
}

}  // namespace

std::optional<Workload> workload(bool with_typed) {
    static std::mutex mu;
    static std::map<bool, std::optional<Workload>> built;
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = built.find(with_typed); it != built.end()) return it->second;
    std::optional<Workload> w;
    if (!clangxx().empty()) {
        Workload candidate;
        candidate.dir = scratch_dir();
        candidate.binary = candidate.dir / (with_typed ? "workload_typed" : "workload");
        const std::string cmd =
            clangxx() + " -O2 -fno-exceptions -fxray-instrument -fxray-instruction-threshold=1 " +
            (with_typed ? "-DWITH_TYPED " : "") + apcgate::test_paths::source_dir() +
            "/tests/xray/workload/xray_workload.cpp -o " + candidate.binary.string() + " -pthread";
        if (run(cmd).first == 0) w = candidate;
    }
    built[with_typed] = w;
    return w;
}

std::optional<std::filesystem::path> build_instrumented(const std::string& source,
                                                        const std::string& flags) {
    if (clangxx().empty()) return std::nullopt;
    const auto binary = scratch_dir() / std::filesystem::path(source).stem();
    const std::string cmd = clangxx() + " -O2 -fxray-instrument " +
                            apcgate::test_paths::source_dir() + "/tests/xray/workload/" + source +
                            " -o " + binary.string() + " " + flags;
    if (run(cmd).first != 0) return std::nullopt;
    return binary;
}

std::filesystem::path run_workload(const Workload& w, const std::string& name,
                                   const std::string& mode, int threads, int iterations,
                                   const std::string& options, const std::string& features,
                                   std::string* error) {
    const auto out = w.dir / name;
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(out);
    const std::string cmd =
        "XRAY_OPTIONS='patch_premain=false verbosity=0 xray_logfile_base=" + out.string() +
        "/log-' " + w.binary.string() + " " + mode + " " + std::to_string(threads) + " " +
        std::to_string(iterations) + " '" + options + "' '" + features + "' 2>/dev/null";
    const auto [status, text] = run(cmd);
    if (status != 0) {
        if (error) *error = "workload exited with " + std::to_string(status);
        return {};
    }
    for (const auto& entry : std::filesystem::directory_iterator(out)) return entry.path();
    if (error) *error = "workload wrote no log";
    return {};
}

std::vector<std::filesystem::path> logs_beside(const std::filesystem::path& log) {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(log.parent_path()))
        if (entry.path().filename().string().rfind("log-", 0) == 0) out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::size_t trim_partial_records(const std::vector<std::uint8_t>& log,
                                 std::vector<std::uint8_t>& out) {
    out.assign(log.begin(), log.begin() + 32);
    std::size_t cut = 0;
    std::size_t pos = 32;
    while (pos + 16 <= log.size() && log[pos] == 0x0F) {
        const std::size_t size = le64(log, pos + 1);
        const std::size_t start = pos + 16;
        const std::size_t end = std::min(log.size(), start + size);
        std::size_t at = start;
        std::size_t whole = start;
        while (at < end) {
            const std::uint8_t b = log[at];
            std::size_t len = 8;
            if (b & 1U) {
                len = 16;
                const std::uint8_t kind = b >> 1;
                if ((kind == 5 || kind == 8) && at + 5 <= end) {
                    std::uint32_t n = 0;
                    std::memcpy(&n, &log[at + 1], 4);
                    len += n;
                }
            }
            if (at + len > end) break;
            at += len;
            whole = at;
        }
        if (whole != end) ++cut;
        std::vector<std::uint8_t> extents(16, 0);
        extents[0] = 0x0F;
        const std::uint64_t kept = whole - start;
        for (int i = 0; i < 8; ++i)
            extents[1 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(kept >> (8 * i));
        out.insert(out.end(), extents.begin(), extents.end());
        out.insert(out.end(), log.begin() + static_cast<std::ptrdiff_t>(start),
                   log.begin() + static_cast<std::ptrdiff_t>(whole));
        pos = start + size;
    }
    return cut;
}

}  // namespace apcgate::xray_test
