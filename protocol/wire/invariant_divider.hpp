// Division of 64-bit unsigned integers by a divisor fixed in advance, as a multiplication and
// shifts (Granlund and Montgomery, "Division by Invariant Integers using Multiplication", 1994,
// figure 4.1): the quotient is exact for every dividend. A converter divides every record's
// time by the same clock rate, and a 64-bit `div` costs several times the multiply.
#pragma once

#include <bit>
#include <cstdint>

namespace apcgate::wire {

class InvariantDivider {
  public:
    // `d` must not be 0.
    explicit InvariantDivider(std::uint64_t d) {
        __extension__ typedef unsigned __int128 u128;
        // l = ceil(log2 d); m = floor(2^64 (2^l - d) / d) + 1 fits 64 bits since 2^l - d < d.
        const unsigned l = d <= 1 ? 0 : 64 - static_cast<unsigned>(std::countl_zero(d - 1));
        multiplier_ = static_cast<std::uint64_t>(((u128{1} << 64) * ((u128{1} << l) - d)) / d + 1);
        shift1_ = l == 0 ? 0 : 1;
        shift2_ = l == 0 ? 0 : l - 1;
    }

    [[nodiscard]] std::uint64_t divide(std::uint64_t n) const {
        __extension__ typedef unsigned __int128 u128;
        const auto t = static_cast<std::uint64_t>((u128{multiplier_} * n) >> 64);
        return (t + ((n - t) >> shift1_)) >> shift2_;
    }

  private:
    std::uint64_t multiplier_ = 0;
    unsigned shift1_ = 0;
    unsigned shift2_ = 0;
};

}  // namespace apcgate::wire
