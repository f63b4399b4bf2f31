// How the capture commands (serve, record) use glibc's heap: blocks of 128 KiB and more are
// always their own mappings, returned to the kernel when freed, and every thread allocates from
// one arena.
//
// Why: a capture's large allocations are vectors of events (16 Ki events are 1.5 MB) made on
// the perf reader's thread and freed on the capture's. glibc's default raises its mapping
// threshold to the size of the largest mapped block freed, after which such vectors come from
// the heaps of two arenas, where the gaps between them cannot be handed back: resident memory
// crept up over a long capture at the highest switch rate (16.0-16.9 MB after 30 s of `perf
// bench sched pipe` system-wide, against 14.1-14.8 MB with this policy; docs/performance.md).
// `convert` keeps the default: it is short-lived, and reuses its buffers instead.
#pragma once

namespace apcgate::daemon {

// Call before the first thread starts. Returns false if glibc refused a setting.
bool use_capture_heap_policy();

}  // namespace apcgate::daemon
