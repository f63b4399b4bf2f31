// The buffers of SpanRuns already encoded, kept for the runs made next on the same thread.
//
// A trace whose spans are cut by frequent other events (context switches, counters) makes a run
// every few annotations: 200,000 runs for the 1.5 M annotations in 32 MiB of the FXT bench
// archive. Each run's two buffers were a malloc when the mapper made it and a free when the
// engine had encoded it, and glibc's per-thread cache keeps only 7 blocks of a size, far fewer
// than the runs one poll makes before the engine frees any. A mapper that take()s its runs here
// gets the buffers of the runs the engine give()s back after encoding them on the same thread.
//
// Bounded: a thread keeps at most kMaxBytes of buffers, no run larger than kMaxRunBytes, and
// none at all if it never took a run (an engine whose runs are made on a reader thread would
// otherwise keep buffers nobody reuses).
#pragma once

#include <cstddef>

#include "protocol/model/span_run.hpp"

namespace apcgate::model::span_run_pool {

inline constexpr std::size_t kMaxBytes = std::size_t{2} << 20;
inline constexpr std::size_t kMaxRunBytes = std::size_t{64} << 10;

// An empty run with room for at least `items` annotations and `text_bytes` of text.
SpanRun take(std::size_t items, std::size_t text_bytes);
// Keeps the run's buffers for a later take() on this thread when the bounds allow; either way
// `run` is left empty.
void give(SpanRun&& run);
// The bytes of buffers this thread keeps (for tests).
std::size_t kept_bytes();

}  // namespace apcgate::model::span_run_pool
