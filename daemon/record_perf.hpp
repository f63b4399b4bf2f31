// `record --framing perf`: the capture loop of a local capture in the Perf-type framing
// (perf_framing_capture.hpp). run_record has set up the output and its documents; this polls at
// the live rate until the duration ends, a signal arrives, or the command or the followed
// processes have exited.
#pragma once

#include <functional>

#include "daemon/apc_directory.hpp"
#include "daemon/capture_service.hpp"
#include "daemon/cli.hpp"

namespace apcgate::daemon {

struct RecordCommandHooks {
    std::function<bool()> release;  // lets a gated command run; false when it could not
    // True once the command, or every --pid process, has exited (false when there are none).
    std::function<bool()> exited;
    // SIGINT or SIGTERM when one arrived while the capture was being set up (0 when none did):
    // the capture then stops as soon as it has begun, and the command is never let run.
    std::function<int()> signal_during_set_up;
};

int record_perf_framing(const RecordOptions& o, CollectorSet& collectors,
                        const model::CaptureSettings& settings,
                        const model::CaptureCounters& counters, ApcDirectory& sink,
                        const RecordCommandHooks& command);

}  // namespace apcgate::daemon
