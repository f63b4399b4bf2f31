// `apcgate report`'s reading of a Perf-type capture (captured.xml type="Perf", gatord 9.x's
// framing and `--framing perf`): one streaming pass with the perf-framing checker
// (perf_capture_summary.hpp), its frames and records handed to the accumulators:
//   - CPU samples: per thread and process, functions and call stacks (perf_samples.hpp), their
//     addresses resolved through MMAP/MMAP2 records, the MAPS texts of the processes running at
//     the start, and the KALLSYMS text for kernel addresses (kernel_symbols.hpp);
//   - CPU time and wait times per thread and process from the kernel's switch records and
//     sched_switch samples (perf_switches.hpp);
//   - spans and markers from the application annotation connections the External frames carry
//     (connection_annotations.hpp, as for v6.8 captures);
//   - counter values from READ groups, Block Counter and COUNTERS, and the losses.
#pragma once

#include <filesystem>

#include "daemon/analysis/capture_analysis.hpp"

namespace apcgate::daemon::analysis {

// Fails only when the directory, its captured.xml or its data file cannot be read at all.
Result<Analysis> analyse_perf_capture(const std::filesystem::path& dir,
                                      const AnalysisOptions& options);

}  // namespace apcgate::daemon::analysis
