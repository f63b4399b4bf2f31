// The rate an FDR log's TSC really ran at, from the log's own clock stamps. Every buffer the
// runtime sets up carries the writer's CLOCK_MONOTONIC (WallClockTime, to the microsecond) beside
// the TSC of the event that opened it, so over a run the stamps measure what the header's cycle
// frequency only claims: LLVM's x86-64 runtime reads that from /sys/.../cpu0/tsc_freq_khz, which
// most kernels do not have, then from cpufreq's cpuinfo_max_freq, the cores' highest clock and
// not the TSC's (durations come out short by their ratio), else writes 0.
//
// The estimate is the median, over every pair of one of the 64 earliest and one of the 64
// latest stamps (by TSC) at least kMinRateSpanNs apart, of Δtsc / Δns (Theil–Sen over those
// pairs: an odd stamp moves it little). Microsecond stamps 20 ms apart give a rate to 1e-4,
// and most pairs are much further apart.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "collectors/xray/log_index.hpp"

namespace apcgate::collectors::xray {

struct MeasuredRate {
    std::uint64_t hz = 0;
    std::int64_t span_ns = 0;  // between the stamps furthest apart that were used
};

inline constexpr std::int64_t kMinRateSpanNs = 20'000'000;
// A header this far off the measured rate is taken to be wrong (a TSC's own drift is ppm).
inline constexpr double kMaxRateDeviation = 0.01;

std::optional<MeasuredRate> measured_tsc_rate(std::span<const WallStamp> early,
                                              std::span<const WallStamp> late);

// The rate the log's TSCs are converted with: the header's, unless it is 0 or more than
// kMaxRateDeviation off a measured rate. `note` says why when it is not the header's.
struct TscRate {
    std::uint64_t hz = 0;  // 0: neither the header nor the stamps give one
    std::string note;
};
TscRate choose_tsc_rate(std::uint64_t header_hz, const std::optional<MeasuredRate>& measured);

}  // namespace apcgate::collectors::xray
