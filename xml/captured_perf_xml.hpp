// Captured XML for a Perf-type capture (the framing gatord 9.x writes): type="Perf",
// protocol="950", backtrace_processing "perf" when samples carry call stacks (else "none"), and
// the target's os. The counters and their keys are listed as for the seed's captures; PEA
// messages carry the same keys.
#pragma once

#include <string>

#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/target_info.hpp"

namespace apcgate::xml {

std::string write_captured_perf(const model::CaptureInfo& info,
                                const model::CaptureCounters& counters, bool call_stacks);

}  // namespace apcgate::xml
