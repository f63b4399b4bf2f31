// `apcgate report`'s reading of a capture: one streaming pass over its frames, every event
// handed to the accumulators (timeline accounting, span statistics, stack profile, counter
// statistics), whose tables make the Report. Works for both framings: the v6.8 ("Gator") frames
// are decoded and rebuilt into model events (Annotate frames read in place: annotate_scan.hpp;
// the frames are read on a thread of their own when there is more than one CPU: frame_batches.hpp);
// a Perf-type capture's frames and kernel records are read as they are (perf_analysis.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "daemon/analysis/image_symbols.hpp"
#include "daemon/analysis/report.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon::analysis {

struct AnalysisOptions {
    SymbolOptions symbols;
    std::optional<std::int32_t> pid;  // functions and stacks of this process only
    // Read the frames on a thread of their own (frame_batches.hpp); unset: when the process may
    // run on more than one CPU.
    std::optional<bool> reading_thread;
};

struct Analysis {
    Report report;
    // The data stopped making sense here: the report holds what came before. Set for corrupt
    // data; a final frame cut short (a killed recorder) is only a loss row.
    std::optional<Error> data_error;
};

// Fails only when the directory, its captured.xml or its data file cannot be read at all.
Result<Analysis> analyse_capture(const std::filesystem::path& dir, const AnalysisOptions& options);

}  // namespace apcgate::daemon::analysis
