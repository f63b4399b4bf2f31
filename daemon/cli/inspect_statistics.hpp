// What `apcgate inspect` says of a capture's statistics file (daemon/capture/statistics_file.hpp):
// the statistics apcgate counted while it made the capture, alike for both framings. The file
// is not part of the APC format, so one that cannot be read is a warning, never a reason to
// call the capture invalid.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

namespace apcgate::daemon {

// Sets "statistics" (the parts as recorded, or null without a file) and, when the file cannot
// be read, "statistics_error" {"message", "kind"}.
void add_recorded_statistics(nlohmann::json& j, const std::filesystem::path& capture_dir);
// A line with how many statistics were recorded, then one per non-zero data-loss or error
// statistic; a warning line when the file cannot be read; nothing without a file.
void print_recorded_statistics(const std::filesystem::path& capture_dir, std::ostream& out);

}  // namespace apcgate::daemon
