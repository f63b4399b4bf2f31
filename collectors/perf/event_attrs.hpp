// perf_event_attr for each kind of event the collector opens. Every event: CLOCK_MONOTONIC_RAW
// timestamps (the capture timeline's clock), sample_id_all with PERF_SAMPLE_IDENTIFIER (the
// record parser finds the writer of any record), opened disabled (enabled together, or by the
// kernel at exec for `record -- CMD`), and kernel/hypervisor excluded unless allowed.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>

namespace apcgate::collectors::perf {

struct AttrCommon {
    bool kernel = true;           // may count/sample in the kernel
    bool inherit = false;         // follow children and new threads (per-task events)
    bool enable_on_exec = false;  // the kernel enables at the task's next exec
};

// Sample layouts; the parser's LayoutTable gets them by event id.
std::uint64_t sideband_sample_type();
std::uint64_t tracepoint_sample_type();
std::uint64_t sampler_sample_type(bool callchain);

// The ring owner of a CPU: a dummy event carrying MMAP2, COMM (with exec), FORK/EXIT and,
// when asked, context-switch records; wakes the reader once `wakeup_bytes` are written.
perf_event_attr sideband_attr(const AttrCommon& c, bool context_switch, std::size_t wakeup_bytes);
// A tracepoint sampled at every hit, with its raw payload.
perf_event_attr tracepoint_attr(const AttrCommon& c, std::uint32_t id);
// cpu-clock sampling every 1/hz s (user and kernel call chains when `callchain`).
perf_event_attr clock_sampler_attr(const AttrCommon& c, int hz, bool callchain);
// Event-based sampling: every `period` events of (type, config).
perf_event_attr event_sampler_attr(const AttrCommon& c, std::uint32_t type, std::uint64_t config,
                                   std::uint64_t period, bool callchain);
// A counting event, read as part of its group (PERF_FORMAT_GROUP with enabled/running times).
perf_event_attr counter_attr(const AttrCommon& c, std::uint32_t type, std::uint64_t config);

}  // namespace apcgate::collectors::perf
