// The three clocks a capture's Summary needs, read together at the capture's zero.
#pragma once

#include <time.h>

#include <cstdint>

namespace apcgate::daemon {

inline std::int64_t clock_ns(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline std::int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

}  // namespace apcgate::daemon
