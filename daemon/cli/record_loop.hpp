// `record`'s capture loops, one per framing: run_record (daemon/cli/record.cpp) has chosen what to
// follow and set up the output and its documents; a loop starts the capture, lets a gated command
// run, and serves the capture at the live rate until the duration ends, a signal arrives, or the
// command or the followed processes have exited.
#pragma once

#include <functional>

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/capture_service.hpp"
#include "daemon/cli/cli.hpp"

namespace apcgate::daemon {

// What the loops know of what is followed, whatever it is.
struct RecordCommandHooks {
    std::function<bool()> release;  // lets a gated command run; false when it could not
    // True once the command, or every --pid process, has exited (false when there are none).
    std::function<bool()> exited;
    // SIGINT or SIGTERM when one arrived while the capture was being set up (0 when none did):
    // the capture then stops as soon as it has begun, and the command is never let run.
    std::function<int()> signal_during_set_up;
};

// The Gator framing (gator_framing: APC frames from the one event model).
int record_gator_framing(const RecordOptions& o, CaptureService& service,
                         const model::CaptureSettings& settings,
                         const model::CaptureCounters& counters, ApcDirectory& sink,
                         const RecordCommandHooks& command);

// The Perf framing (perf_framing_capture.hpp: the kernel's records forwarded).
int record_perf_framing(const RecordOptions& o, CollectorSet& collectors,
                        const model::CaptureSettings& settings,
                        const model::CaptureCounters& counters, ApcDirectory& sink,
                        const RecordCommandHooks& command);

}  // namespace apcgate::daemon
