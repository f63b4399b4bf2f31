// Shared by the XRay tests: reading files, running the real tools (clang-14, llvm-xray), decoding
// a log with the ingester's reader into the same per-thread shape as llvm-xray's YAML, and
// comparing the two thread by thread.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/xray_statistics.hpp"
#include "llvm_yaml.hpp"

namespace apcgate::xray_test {

std::filesystem::path testdata(const std::string& name);  // in tests/data/xray
std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

// Runs a shell command; returns (exit status, stdout). stderr goes to the test's stderr.
std::pair<int, std::string> run(const std::string& command);
std::string llvm_xray();  // the llvm-xray 14 executable, "" when not installed
std::string clangxx();    // clang++-14, "" when not installed

struct Decoded {
    PerThread threads;
    std::unique_ptr<collectors::ingest::IngestReport> report;
    bool opened = false;
    std::string error;  // when not opened
    std::size_t records = 0;
    std::uint32_t max_cpu = 0;  // the index's: the highest core the capture will declare
};

// Reads a whole log with XrayReader (no mapping), keyed like the YAML: (pid or -1, tid).
Decoded decode(const std::vector<std::uint8_t>& bytes, const std::string& name = "log");

// One of the XRay statistics `report` was given.
inline std::uint64_t statistic(const collectors::ingest::IngestReport& report,
                               collectors::xray::XrayStat s) {
    return report.statistic(collectors::xray::XrayStatistics::spec(s));
}

// Keys threads by tid alone (llvm-xray names the process only from version 3 on).
PerThread by_tid(const PerThread& threads);

// Adds a failure per thread whose sequences differ (first difference shown) and per thread
// present on one side only.
void expect_same_threads(const PerThread& mine, const PerThread& reference,
                         const std::string& what);

// llvm-xray's decode of `log` (with `binary` as instr_map and symbolized when not empty).
std::optional<LlvmTrace> llvm_decode(const std::filesystem::path& log,
                                     const std::filesystem::path& binary, std::string* error);

}  // namespace apcgate::xray_test
