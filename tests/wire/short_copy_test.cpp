// copy_short must copy exactly n bytes for every length, on both sides of each of its size
// classes (4, 8, 16, 32), and touch nothing past them.
#include "protocol/wire/short_copy.hpp"

#include <gtest/gtest.h>

#include <array>
#include <numeric>

namespace apcgate::wire {
namespace {

TEST(ShortCopy, CopiesExactlyNBytesForEveryLength) {
    std::array<unsigned char, 80> src{};
    std::iota(src.begin(), src.end(), static_cast<unsigned char>(1));
    for (std::size_t n = 0; n <= 64; ++n) {
        std::array<unsigned char, 80> dst{};
        dst.fill(0xEE);
        copy_short(dst.data() + 3, src.data() + 5, n);
        for (std::size_t i = 0; i < dst.size(); ++i) {
            const bool inside = i >= 3 && i < 3 + n;
            EXPECT_EQ(dst[i], inside ? src[5 + i - 3] : 0xEE) << "n=" << n << " byte " << i;
        }
    }
}

}  // namespace
}  // namespace apcgate::wire
