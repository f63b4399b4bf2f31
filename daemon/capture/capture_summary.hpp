// What `apcgate inspect` reports about an .apc directory, computed in one streaming pass over
// its frames with the same decoder and frame-rule checker the tests use.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/apc/frame_rules.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

struct CounterSummary {
    std::int32_t key = 0;
    std::string type;   // counter name from captured.xml
    std::string title;  // "Category: Title Name" from events.xml, when known
    std::string frame;  // "Counter" or "Block Counter" ("" when no value was seen)
    std::uint64_t values = 0;
    std::int64_t min = 0, max = 0, last = 0;
};

struct CaptureSummary {
    std::filesystem::path path;
    xml::CapturedDoc captured;
    std::optional<apc::SummaryMessage> summary;
    std::uint64_t data_bytes = 0;
    std::uint64_t frames = 0;
    std::map<std::string, std::uint64_t> frames_by_type;
    std::map<std::string, std::uint64_t> messages_by_kind;
    std::vector<CounterSummary> counters;
    std::map<std::int32_t, std::string> threads;  // tid -> name (Name and Proc frames)
    std::map<std::int32_t, std::string> cores;    // core -> name (Summary frames)
    std::optional<std::int64_t> first_ts, last_ts;
    apc::StreamEnd end = apc::StreamEnd::Clean;
    std::optional<Error> error;  // decode/split problem, with its offset
    std::vector<apc::Violation> violations;
    [[nodiscard]] bool valid() const {
        return end != apc::StreamEnd::Corrupt && !(error && end == apc::StreamEnd::Clean) &&
               violations.empty();
    }
};

// Reads and checks the capture; `dump` (if set) gets one line per frame header and message.
// Fails only when the directory or its captured.xml / 0000000000 cannot be read at all.
Result<CaptureSummary> summarize_capture(const std::filesystem::path& dir,
                                         const std::function<void(const std::string&)>& dump);

}  // namespace apcgate::daemon
