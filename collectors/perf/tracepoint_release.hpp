// Closing the tracepoint events of a capture. The last close of a tracepoint's perf events makes
// the kernel unregister its probe and wait for RCU grace periods before close() returns: 5-33 ms
// per tracepoint here (power:cpu_idle, called from the idle loop, the longest). A daemon closes
// each tracepoint's events on a thread of its own, so the waits overlap. A process that ends
// right after its capture (`record`) would still wait for them at exit, so it can leave the last
// closes to a helper process: a fork that first closes every other descriptor it inherited
// (the capture's files, the terminal, a pipe a caller reads to its end), then the tracepoint
// events, and exits; the command returns as soon as its capture is written.
// Every set of perf events closes this way: a capture's (PerfSession, ForwardedEvents) and the
// tracepoint events the probe held for it (PerfSource::release_probe_events).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "collectors/perf/perf_fd.hpp"

namespace apcgate::collectors::perf {

enum class TracepointRelease : unsigned char {
    Threads,  // a thread per tracepoint, joined before returning
    Helper,   // a helper process, not waited for (Threads if it cannot be started)
};

// Closes a capture's events and empties `fds`: those of no tracepoint at once, then each
// tracepoint's together (on every CPU and target), as `how` says. `tracepoint_of` names the
// tracepoint (its id) of each fd that is one. With Helper, returns the helper's pid when one was
// started: it is this process's child, reaped by whoever outlives it (tests wait for it).
std::optional<pid_t> close_events(std::vector<PerfFd>& fds,
                                  const std::map<int, std::uint64_t>& tracepoint_of,
                                  TracepointRelease how);

}  // namespace apcgate::collectors::perf
