#include "daemon/capture/perf_capture_summary.hpp"

#include <set>

#include "daemon/capture/capture_files.hpp"
#include "protocol/perf_framing/frame_format.hpp"

namespace apcgate::daemon {

bool is_perf_capture(const std::filesystem::path& dir) {
    auto doc = read_captured(dir);
    return doc && doc->type == "Perf";
}

Result<PerfCaptureSummary> summarize_perf_capture(
    const std::filesystem::path& dir,
    const std::function<void(const perf_framing::RecordView&)>& on_record,
    const std::function<void(const std::string&)>& dump,
    const std::function<void(const perf_framing::DecodedPerfFrame&)>& on_frame) {
    PerfCaptureSummary s;
    s.path = dir;
    auto files = open_capture_files(dir);
    if (!files) return std::move(files).take_error();
    s.captured = std::move(files->captured);
    const auto bytes = files->data.bytes();
    s.data_bytes = bytes.size();

    std::set<std::int32_t> keys;
    for (const auto& c : s.captured.counters) keys.insert(c.key);
    std::string lines;
    auto record = on_record;
    if (dump) {
        record = [&](const perf_framing::RecordView& r) {
            if (on_record) on_record(r);
            perf_framing::format_record(r, lines);
        };
    }
    perf_framing::PerfCaptureChecker checker(std::move(keys), record);
    if (dump || on_frame) {
        checker.on_frame([&](const perf_framing::DecodedPerfFrame& f, std::size_t size) {
            if (on_frame) on_frame(f);
            if (dump) perf_framing::format_frame(f, size, lines);
        });
    }
    apc::CaptureSplitter splitter(bytes);
    while (auto raw = splitter.next()) {
        checker.frame(raw->body, raw->body_offset);
        if (dump && !lines.empty()) {
            dump(lines);
            lines.clear();
        }
    }
    s.end = splitter.end();
    if (splitter.error()) s.error = Error(*splitter.error()).in_input(files->data_path.string());
    s.violations = checker.finish();
    s.tally = checker.tally();
    return s;
}

}  // namespace apcgate::daemon
