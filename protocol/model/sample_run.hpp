// Periodic samples in bulk: what a run of CounterSample events and one-frame Backtrace events (PC
// samples) says, as one event. A sampling agent's record carries several counter values and a
// PC at one time on one core, and a store holds millions of them; as separate events each value
// would be a 100-byte variant built by the collector, ordered, moved and visited by the encoder,
// which costs several times what decoding the record does (docs/performance.md, "Barman"). A run
// keeps them as 32-byte samples in one vector, and the encoder writes exactly the messages the
// equivalent single events give, in the same order.
//
// Samples are in non-decreasing time order. `first` marks where the pending part starts: the
// merger emits a run's front part when another source's events fall inside it, and keeps the
// rest (as for SpanRun). The run's time, for ordering it among other events, is its first pending
// sample's. Producers that have few samples (the perf collector, FXT) keep using single events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace apcgate::model {

// The key of a PC sample: counter keys are assigned from 3 up, so 0 is never one.
inline constexpr std::int32_t kPcSampleKey = 0;

struct Sample {
    std::int64_t ts = 0;
    // A counter value (as CounterSample::value), or a PC sample's offset within its image.
    std::int64_t value = 0;
    std::int32_t core = 0;
    // A counter key (> 2): the sample is CounterSample{ts, core, key, value, pid}.
    // kPcSampleKey: it is Backtrace{ts, core, cookie, pid, pid, {{cookie, value}}}: a thread
    // sampled in image `cookie` (its executable as far as the sampler knows), the thread's id
    // standing for its process's as it does for samplers that know no processes (Barman).
    std::int32_t key = 0;
    std::int32_t pid = -1;    // a counter value's pid (-1: none); a PC sample's thread
    std::int32_t cookie = 0;  // a PC sample's image (0 kernel, -1 unknown); unused for counters
};

struct SampleRun {
    std::vector<Sample> samples;
    std::size_t first = 0;

    [[nodiscard]] bool empty() const { return first == samples.size(); }
    [[nodiscard]] std::size_t pending() const { return samples.size() - first; }
    // The first pending sample's time (0 when none is pending).
    [[nodiscard]] std::int64_t front_ts() const { return empty() ? 0 : samples[first].ts; }
    // Marks the first `n` pending samples emitted.
    void advance(std::size_t n) { first += n; }
};

}  // namespace apcgate::model
