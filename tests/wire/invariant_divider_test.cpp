// InvariantDivider against the `/` it stands for: every divisor class (1, powers of two and
// their neighbours, small odd and even ones, clock rates, the largest) with dividends at the
// edges of the range and a few million pseudo-random ones, each quotient exact.
#include "protocol/wire/invariant_divider.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace apcgate::wire {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::vector<std::uint64_t> divisors() {
    std::vector<std::uint64_t> d = {1,         2,          3,           5,          6,
                                    7,         10,         24'000'000,  19'200'000, 1'000'000'000,
                                    3'000'000, 62'500'000, 999'999'937, kMax,       kMax - 1,
                                    kMax / 2,  kMax / 3};
    for (unsigned b = 1; b < 64; ++b) {
        const std::uint64_t p = std::uint64_t{1} << b;
        d.insert(d.end(), {p - 1, p, p + 1});
    }
    return d;
}

TEST(InvariantDivider, QuotientsAreExactAtTheEdgesOfTheRange) {
    for (const std::uint64_t d : divisors()) {
        const InvariantDivider div(d);
        for (const std::uint64_t n :
             {std::uint64_t{0}, std::uint64_t{1}, d - 1, d, d + 1, 2 * d - 1, 2 * d, kMax - d,
              kMax - 1, kMax, kMax / d * d, kMax / d * d - 1}) {
            ASSERT_EQ(div.divide(n), n / d) << n << " / " << d;
        }
    }
}

TEST(InvariantDivider, QuotientsAreExactForRandomDividendsAndDivisors) {
    std::mt19937_64 rng(20261128);
    for (const std::uint64_t d : divisors()) {
        const InvariantDivider div(d);
        for (int i = 0; i < 20'000; ++i) {
            const std::uint64_t n = rng() >> (rng() % 64);  // every magnitude
            ASSERT_EQ(div.divide(n), n / d) << n << " / " << d;
        }
    }
    for (int i = 0; i < 200'000; ++i) {
        const std::uint64_t d = (rng() >> (rng() % 64)) | 1;
        const std::uint64_t n = rng() >> (rng() % 64);
        ASSERT_EQ(InvariantDivider(d).divide(n), n / d) << n << " / " << d;
        ASSERT_EQ(InvariantDivider(d + 1).divide(n), n / (d + 1)) << n << " / " << d + 1;
    }
}

}  // namespace
}  // namespace apcgate::wire
