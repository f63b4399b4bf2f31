// What `report` and `diff` share: their command-line symbol options as the analysis takes them.
#pragma once

#include <cstdint>
#include <optional>

#include "daemon/analysis/capture_analysis.hpp"
#include "daemon/cli/cli.hpp"

namespace apcgate::daemon {

analysis::AnalysisOptions analysis_options(const SymbolArgs& symbols,
                                           std::optional<std::int32_t> pid);

}  // namespace apcgate::daemon
