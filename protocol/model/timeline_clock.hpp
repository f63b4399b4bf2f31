// The clock every live capture's timeline is measured on: CLOCK_MONOTONIC_RAW.
//
// Why RAW and not CLOCK_MONOTONIC: applications built with Arm's annotation library stamp each
// message with CLOCK_MONOTONIC_RAW (docs/protocol/annotation-protocol.md, "time"), and
// Streamline places those External-frame messages against the Summary frame's monotonic delta.
// gatord uses the same clock for its perf events, so perf records (opened with use_clockid),
// the live driver's timers and the Summary must all read this one clock or annotations drift
// by NTP slewing against everything else.
#pragma once

#include <time.h>

#include <cstdint>

namespace apcgate::model {

inline constexpr clockid_t kTimelineClock = CLOCK_MONOTONIC_RAW;

// Nanoseconds on the timeline clock, since boot (not since the capture's zero).
inline std::int64_t timeline_clock_ns() {
    timespec ts{};
    ::clock_gettime(kTimelineClock, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace apcgate::model
