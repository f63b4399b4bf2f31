// `apcgate inspect` for a Perf-type capture (captured.xml type="Perf"): run_inspect hands such a
// capture here. Same exit codes as the v6.8 path.
#pragma once

#include <ostream>

#include "daemon/cli/cli.hpp"

namespace apcgate::daemon {

int run_inspect_perf(const InspectOptions& options, std::ostream& out, std::ostream& err);

}  // namespace apcgate::daemon
