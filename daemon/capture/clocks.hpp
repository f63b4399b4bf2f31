// The three clocks a capture's Summary needs, read together at the capture's zero.
#pragma once

#include <time.h>

#include <cstdint>

#include "protocol/model/timeline_clock.hpp"

namespace apcgate::daemon {

inline std::int64_t clock_ns(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The timeline clock (CLOCK_MONOTONIC_RAW, see timeline_clock.hpp).
inline std::int64_t monotonic_ns() {
    return model::timeline_clock_ns();
}

}  // namespace apcgate::daemon
