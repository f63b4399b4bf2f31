// ProviderTables::to_ns (a multiply and shift by libdivide in the usual case) must give exactly
// the 128-bit quotient of ticks * 1e9 by the provider's ticks per second, or nothing when that
// does not fit in 63 bits, for every clock a writer may declare and every timestamp. (Until
// 2026-11-28 a clock slower than 0.5 GHz turned timestamps past 2^63 ns into negative times
// instead of reporting them.)
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "collectors/fxt/provider_tables.hpp"

namespace apcgate::collectors::fxt {
namespace {

__extension__ using Uint128 = unsigned __int128;

std::optional<model::Nanos> reference_ns(std::uint64_t ticks, std::uint64_t per_second) {
    const Uint128 ns = Uint128{ticks} * 1'000'000'000U / per_second;
    if (ns > static_cast<Uint128>(std::numeric_limits<model::Nanos>::max())) return std::nullopt;
    return static_cast<model::Nanos>(ns);
}

ProviderTables tables_at(std::uint64_t per_second) {
    ProviderTables tables;
    tables.apply(Record{InitializationRecord{per_second}});
    return tables;
}

TEST(FxtTickConversion, EqualsTheDivisionForEveryKindOfClock) {
    // Powers of two, the usual timer rates, odd and prime rates, rates above 1 GHz and up to
    // the largest a 64-bit dividend allows (the divisors whose magic numbers need 65 bits are
    // among them: 7, 19.2 MHz, 1e9 + 7).
    const std::vector<std::uint64_t> clocks = {1,
                                               2,
                                               3,
                                               7,
                                               1'000,
                                               32'768,
                                               1'000'000,
                                               19'200'000,
                                               24'000'000,
                                               25'000'000,
                                               1'000'000'000,
                                               1'000'000'007,
                                               2'400'000'000,
                                               4'294'967'291,
                                               4'294'967'296,
                                               18'446'744'073ULL,
                                               std::numeric_limits<std::uint64_t>::max() / 3,
                                               std::numeric_limits<std::uint64_t>::max()};
    std::mt19937_64 random(25);
    const std::uint64_t usual_limit = std::numeric_limits<std::uint64_t>::max() / 1'000'000'000U;
    for (const std::uint64_t per_second : clocks) {
        const ProviderTables tables = tables_at(per_second);
        ASSERT_EQ(tables.ticks_per_second(), per_second);
        std::vector<std::uint64_t> ticks = {0,
                                            1,
                                            per_second - 1,
                                            per_second,
                                            per_second + 1,
                                            usual_limit - 1,
                                            usual_limit,
                                            usual_limit + 1,
                                            std::numeric_limits<std::uint64_t>::max()};
        for (int i = 0; i < 20'000; ++i) {
            ticks.push_back(random() % (usual_limit + 1));  // the multiply-and-shift path
            ticks.push_back(random());                      // beyond it
        }
        for (const std::uint64_t t : ticks) {
            ASSERT_EQ(tables.to_ns(t), reference_ns(t, per_second))
                << t << " ticks at " << per_second << " per second";
        }
    }
}

TEST(FxtTickConversion, AResetProviderIsBackToNanoseconds) {
    ProviderTables tables = tables_at(19'200'000);
    EXPECT_EQ(tables.to_ns(19'200'000), std::optional<model::Nanos>(1'000'000'000));
    tables.reset();
    EXPECT_EQ(tables.to_ns(19'200'000), std::optional<model::Nanos>(19'200'000));
    // A second initialization record replaces the first one's clock.
    tables.apply(Record{InitializationRecord{24'000'000}});
    tables.apply(Record{InitializationRecord{3}});
    EXPECT_EQ(tables.to_ns(10), std::optional<model::Nanos>(3'333'333'333));
}

}  // namespace
}  // namespace apcgate::collectors::fxt
