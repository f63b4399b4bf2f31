// memcpy for the short strings a converter copies millions of times (function names, mostly
// under 32 bytes), without a library call: two overlapping fixed-size copies cover any length
// between the two sizes, and a fixed-size memcpy compiles to plain loads and stores. Reads and
// writes exactly [0, n) of each side.
#pragma once

#include <cstddef>
#include <cstring>

namespace apcgate::wire {

inline void copy_short(void* dst, const void* src, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    if (n >= 16 && n <= 32) {
        std::memcpy(d, s, 16);
        std::memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8 && n < 16) {
        std::memcpy(d, s, 8);
        std::memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        std::memcpy(d, s, 4);
        std::memcpy(d + n - 4, s + n - 4, 4);
    } else if (n != 0) {
        std::memcpy(d, s, n);
    }
}

}  // namespace apcgate::wire
