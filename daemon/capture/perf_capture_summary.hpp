// What `apcgate inspect` reports about a Perf-type capture (captured.xml type="Perf", the
// framing gatord 9.x writes): one streaming pass over its frames with the perf-framing checker.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/perf_framing/capture_check.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

struct PerfCaptureSummary {
    std::filesystem::path path;
    xml::CapturedDoc captured;
    std::uint64_t data_bytes = 0;
    perf_framing::PerfCaptureTally tally;
    apc::StreamEnd end = apc::StreamEnd::Clean;
    std::optional<Error> error;  // a length prefix that breaks the file, with its offset
    std::vector<perf_framing::PerfViolation> violations;
    [[nodiscard]] bool valid() const {
        return end != apc::StreamEnd::Corrupt && !(error && end == apc::StreamEnd::Clean) &&
               violations.empty();
    }
};

// Whether the .apc directory's captured.xml says type="Perf" (false when it cannot be read:
// the v6.8 path then reports why).
bool is_perf_capture(const std::filesystem::path& dir);

// `on_record` (if set) sees every record that parsed; `dump` (if set) gets one line per frame,
// PERF_ATTRS message and record (perf_framing/frame_format.hpp), in file order; `on_frame` (if
// set) sees every frame that decoded, before its records. Fails only when the directory, its
// captured.xml or its data file cannot be read at all.
Result<PerfCaptureSummary> summarize_perf_capture(
    const std::filesystem::path& dir,
    const std::function<void(const perf_framing::RecordView&)>& on_record = {},
    const std::function<void(const std::string&)>& dump = {},
    const std::function<void(const perf_framing::DecodedPerfFrame&)>& on_frame = {});

}  // namespace apcgate::daemon
