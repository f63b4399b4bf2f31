// Logs clang-14's XRay runtime writes during the test: the workload program
// (workload/xray_workload.cpp) is built once per test binary with -fxray-instrument, in a
// variant without typed events (llvm-xray 14 cannot read the instrumentation map of a binary
// with typed-event sleds) and one with them, and run with the options each test wants.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace apcgate::xray_test {

struct Workload {
    std::filesystem::path binary;
    std::filesystem::path dir;
};

// Builds (once) the workload; nullopt when clang-14 or the XRay runtime is missing.
std::optional<Workload> workload(bool with_typed);

// Builds tests/xray/workload/`source` with clang-14's XRay instrumentation and `flags` (extra
// libraries) into the scratch directory; nullopt when clang-14 is missing or the build fails.
std::optional<std::filesystem::path> build_instrumented(const std::string& source,
                                                        const std::string& flags);

// Runs it and returns the log it wrote (empty path on failure, with `error` set).
std::filesystem::path run_workload(const Workload& w, const std::string& name,
                                   const std::string& mode, int threads, int iterations,
                                   const std::string& options, const std::string& features,
                                   std::string* error);

// Every log in the directory of `log` (a run with feature 'r' writes two), by name.
std::vector<std::filesystem::path> logs_beside(const std::filesystem::path& log);

// The typed-event bug of LLVM 14's runtime cuts buffers short: a copy of a v5 log whose buffers
// end at their last whole record (BufferExtents lowered), which llvm-xray can read. Returns
// how many buffers it had to cut.
std::size_t trim_partial_records(const std::vector<std::uint8_t>& log,
                                 std::vector<std::uint8_t>& out);

}  // namespace apcgate::xray_test
