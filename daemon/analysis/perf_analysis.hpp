// `apcgate report`'s reading of a Perf-type capture (captured.xml type="Perf", gatord 9.x's
// framing and `--framing perf`): one streaming pass with the perf-framing checker
// (perf_capture_summary.hpp) gives samples, thread names, functions and stacks
// (perf_samples.hpp), counter values and losses; the report's notes say what it cannot give.
#pragma once

#include <filesystem>

#include "daemon/analysis/capture_analysis.hpp"

namespace apcgate::daemon::analysis {

// Fails only when the directory, its captured.xml or its data file cannot be read at all.
Result<Analysis> analyse_perf_capture(const std::filesystem::path& dir,
                                      const AnalysisOptions& options);

}  // namespace apcgate::daemon::analysis
