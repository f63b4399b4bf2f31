// What a capture is asked to do: the parsed session XML (or `record` flags) and the configured
// counters. Plain data so collectors can read it without knowing XML.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace apcgate::model {

enum class BufferMode { Streaming, Small, Medium, Normal, Large };
enum class SampleRate { None, Low, Normal, High };

// Sampling frequencies gatord uses (primes, to avoid aliasing with periodic work).
inline int sample_rate_hz(SampleRate r) {
    switch (r) {
        case SampleRate::None:
            return 0;
        case SampleRate::Low:
            return 101;
        case SampleRate::Normal:
            return 1009;
        case SampleRate::High:
            return 10007;
    }
    return 0;
}

// Store-and-forward buffer sizes: the seed's small/medium/large (1/4/16 MB) and gatord's normal
// (64 MB). Streaming has no total limit. A capture in a buffered mode ends when it is full.
inline std::uint64_t buffer_mode_bytes(BufferMode m) {
    constexpr std::uint64_t kMiB = std::uint64_t{1024} * 1024;
    switch (m) {
        case BufferMode::Streaming:
            return 0;
        case BufferMode::Small:
            return 1 * kMiB;
        case BufferMode::Medium:
            return 4 * kMiB;
        case BufferMode::Normal:
            return 64 * kMiB;
        case BufferMode::Large:
            return 16 * kMiB;
    }
    return 0;
}

struct CaptureSettings {
    bool call_stack_unwinding = true;
    BufferMode buffer_mode = BufferMode::Streaming;
    SampleRate sample_rate = SampleRate::Normal;
    int duration_s = 0;       // 0: until stopped
    int live_rate_ms = 100;   // flush interval; 0 means "no live view" and we still flush at 100
    std::string session_xml;  // as delivered, written back as session.xml
};

// One <configuration> entry.
struct ConfiguredCounter {
    std::string counter;                 // counter name, or a counter_set slot like PREFIX_cnt0
    std::optional<std::uint32_t> event;  // hex event number
    std::optional<std::int64_t> count;   // event-based sampling period
    std::optional<int> cores;
};

struct Configuration {
    int revision = 3;
    std::vector<ConfiguredCounter> counters;
};

// Removes the entries of a counter configured before: the first one wins, as when counters are
// assigned keys (CaptureCounters::assign), so nothing the capture would use is lost. Returns the
// number removed. A repeated counter would otherwise be stored again and again.
std::size_t drop_repeated_counters(Configuration& config);

}  // namespace apcgate::model
