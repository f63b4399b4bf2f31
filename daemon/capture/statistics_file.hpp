// A capture's statistics file (kStatisticsFile in the .apc directory): what apcgate counted
// while it made the capture, each statistic as its table declares it, so `apcgate inspect`
// can say later what a recording or a conversion lost. `record` and `convert` write it at the
// capture's end; a live capture's statistics go to the daemon's log instead (Streamline writes
// that capture's directory).
//
//   { "apcgate_statistics": 1,
//     "parts": [ { "who": "perf" | "encoder" | "source PATH" | ...,
//                  "statistics": [ { "name": "...", "value": N,
//                                    "severity": "info" | "data_loss" | "error",
//                                    "description": "..." }, ... ] }, ... ] }
//
// A capture directory may come from anywhere, so the reader trusts nothing in it: the file's
// size, the number of parts and statistics and the length of each text are bounded, and every
// field is checked for its type.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/capture/statistics_of.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

inline constexpr int kStatisticsFileVersion = 1;
inline constexpr std::uint64_t kMaxStatisticsFileBytes = 1u << 20;

// The file's text for these parts, every statistic whether zero or not.
std::string statistics_document(std::span<const StatisticsOf> parts);

// One statistic as the file records it.
struct RecordedStatistic {
    std::string name;
    std::uint64_t value = 0;
    std::string severity;  // "info", "data_loss" or "error"
    std::string description;
};

struct RecordedPart {
    std::string who;
    std::vector<RecordedStatistic> statistics;
};

// Parses the file's text; Malformed (naming the field) when it is not the shape above,
// Unsupported for another version, Limit past the bounds.
Result<std::vector<RecordedPart>> parse_statistics_document(std::string_view text);

// The capture directory's statistics: nullopt when it has no statistics file (a live capture,
// or one made by another tool), else the parts or why they cannot be read.
std::optional<Result<std::vector<RecordedPart>>> read_statistics_file(
    const std::filesystem::path& capture_dir);

}  // namespace apcgate::daemon
