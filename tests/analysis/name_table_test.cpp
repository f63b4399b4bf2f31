// The analysis's name table: ids in order of first use, the same id for the same name however
// large the table grows (its index is rebuilt as it grows), names told apart by every byte and
// by length, and the bound: past it names share the overflow id and are counted.
#include "daemon/analysis/name_table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace apcgate::daemon::analysis {
namespace {

TEST(NameTable, IdsAreDenseAndStableAsTheTableGrows) {
    NameTable t(1u << 20, "(other)");
    constexpr std::uint32_t kNames = 50000;
    for (std::uint32_t i = 0; i < kNames; ++i) ASSERT_EQ(t.id("name " + std::to_string(i)), i);
    EXPECT_EQ(t.size(), kNames);
    for (std::uint32_t i = 0; i < kNames; ++i) {
        ASSERT_EQ(t.id("name " + std::to_string(i)), i);
        ASSERT_EQ(t.name(i), "name " + std::to_string(i));
    }
    EXPECT_EQ(t.size(), kNames);
    EXPECT_EQ(t.overflowed(), 0u);
}

TEST(NameTable, NamesDifferingInOneByteOrInLengthAreDistinct) {
    NameTable t(100, "(other)");
    const std::string long_name(40, 'x');
    std::string other = long_name;
    other[37] = 'y';  // past the first eight-byte words
    const std::uint32_t a = t.id(long_name);
    const std::uint32_t b = t.id(other);
    const std::uint32_t c = t.id("ab");
    const std::uint32_t d = t.id(std::string("ab\0", 3));  // zero bytes pad the last word too
    const std::uint32_t e = t.id("");
    EXPECT_EQ(t.size(), 5u);
    EXPECT_NE(a, b);
    EXPECT_NE(c, d);
    EXPECT_EQ(t.id(std::string("ab\0", 3)), d);
    EXPECT_EQ(t.id(""), e);
    EXPECT_EQ(t.name(d), std::string("ab\0", 3));
}

TEST(NameTable, PastTheLimitNamesShareTheOverflowIdAndAreCounted) {
    NameTable t(2, "(other)");
    EXPECT_EQ(t.id("a"), 0u);
    EXPECT_EQ(t.id("b"), 1u);
    EXPECT_EQ(t.id("c"), t.overflow_id());
    EXPECT_EQ(t.id("d"), t.overflow_id());
    EXPECT_EQ(t.id("a"), 0u);  // known names keep their ids
    EXPECT_EQ(t.overflowed(), 2u);
    EXPECT_EQ(t.name(t.overflow_id()), "(other)");
    EXPECT_EQ(t.size(), 2u);
}

}  // namespace
}  // namespace apcgate::daemon::analysis
