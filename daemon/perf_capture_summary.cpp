#include "daemon/perf_capture_summary.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "daemon/apc_directory.hpp"
#include "daemon/mapped_file.hpp"

namespace apcgate::daemon {

namespace {

std::optional<std::string> read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

bool is_perf_capture(const std::filesystem::path& dir) {
    const auto text = read_text(dir / "captured.xml");
    if (!text) return false;
    auto doc = xml::parse_captured(*text);
    return doc && doc->type == "Perf";
}

Result<PerfCaptureSummary> summarize_perf_capture(
    const std::filesystem::path& dir,
    const std::function<void(const perf_framing::RecordView&)>& on_record) {
    PerfCaptureSummary s;
    s.path = dir;
    const auto captured_text = read_text(dir / "captured.xml");
    if (!captured_text) return Error::at("cannot read captured.xml").in_input(dir.string());
    auto captured = xml::parse_captured(*captured_text);
    if (!captured) return std::move(captured).take_error().in_input((dir / "captured.xml").string());
    s.captured = std::move(captured).value();

    const auto data_path = dir / kApcDataFile;
    auto file = MappedFile::open(data_path);
    if (!file) return std::move(file).take_error();
    const auto bytes = file->bytes();
    s.data_bytes = bytes.size();

    std::set<std::int32_t> keys;
    for (const auto& c : s.captured.counters) keys.insert(c.key);
    perf_framing::PerfCaptureChecker checker(std::move(keys), on_record);
    apc::CaptureSplitter splitter(bytes);
    while (auto raw = splitter.next()) checker.frame(raw->body, raw->body_offset);
    s.end = splitter.end();
    if (splitter.error()) s.error = Error(*splitter.error()).in_input(data_path.string());
    s.violations = checker.finish();
    s.tally = checker.tally();
    return s;
}

}  // namespace apcgate::daemon
