#include "daemon/perf_capture_summary.hpp"

#include <set>

#include "daemon/capture_files.hpp"

namespace apcgate::daemon {

bool is_perf_capture(const std::filesystem::path& dir) {
    auto doc = read_captured(dir);
    return doc && doc->type == "Perf";
}

Result<PerfCaptureSummary> summarize_perf_capture(
    const std::filesystem::path& dir,
    const std::function<void(const perf_framing::RecordView&)>& on_record) {
    PerfCaptureSummary s;
    s.path = dir;
    auto files = open_capture_files(dir);
    if (!files) return std::move(files).take_error();
    s.captured = std::move(files->captured);
    const auto bytes = files->data.bytes();
    s.data_bytes = bytes.size();

    std::set<std::int32_t> keys;
    for (const auto& c : s.captured.counters) keys.insert(c.key);
    perf_framing::PerfCaptureChecker checker(std::move(keys), on_record);
    apc::CaptureSplitter splitter(bytes);
    while (auto raw = splitter.next()) checker.frame(raw->body, raw->body_offset);
    s.end = splitter.end();
    if (splitter.error()) s.error = Error(*splitter.error()).in_input(files->data_path.string());
    s.violations = checker.finish();
    s.tally = checker.tally();
    return s;
}

}  // namespace apcgate::daemon
