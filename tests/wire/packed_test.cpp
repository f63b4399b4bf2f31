// The seed's packed32/packed64 (gator-protocol-v6.8.txt, "Packed Values"): its two worked
// examples, every width boundary of its tables, and the int32/int64 limits, both directions.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/byte_writer.hpp"

namespace apcgate::wire {
namespace {

std::vector<std::uint8_t> pack64(std::int64_t v) {
    std::vector<std::uint8_t> out;
    ByteWriter(out).packed64(v);
    return out;
}

TEST(Packed, SpecExample32) {
    std::vector<std::uint8_t> out;
    ByteWriter(out).packed32(429389);
    EXPECT_EQ(out, (std::vector<std::uint8_t>{0xCD, 0x9A, 0x1A}));
}

TEST(Packed, SpecExample64) {
    EXPECT_EQ(
        pack64(-4758616141418899142LL),
        (std::vector<std::uint8_t>{0xBA, 0xB2, 0xA5, 0xA2, 0xCE, 0xFA, 0xFF, 0xFA, 0xBD, 0x7F}));
}

TEST(Packed, SmallValues) {
    EXPECT_EQ(pack64(0), (std::vector<std::uint8_t>{0x00}));
    EXPECT_EQ(pack64(63), (std::vector<std::uint8_t>{0x3F}));
    EXPECT_EQ(pack64(64), (std::vector<std::uint8_t>{0xC0, 0x00}));
    EXPECT_EQ(pack64(-64), (std::vector<std::uint8_t>{0x40}));
    EXPECT_EQ(pack64(-65), (std::vector<std::uint8_t>{0xBF, 0x7F}));
    EXPECT_EQ(pack64(8191), (std::vector<std::uint8_t>{0xFF, 0x3F}));
    EXPECT_EQ(pack64(8192), (std::vector<std::uint8_t>{0x80, 0xC0, 0x00}));
    EXPECT_EQ(pack64(-8192), (std::vector<std::uint8_t>{0x80, 0x40}));
    EXPECT_EQ(pack64(-8193), (std::vector<std::uint8_t>{0xFF, 0xBF, 0x7F}));
}

struct Boundary {
    std::int64_t value;
    std::size_t bytes;
};

// Each row of the seed's tables: the last value that fits in that many bytes.
TEST(Packed, TableBoundaries64) {
    const Boundary rows[] = {
        {-64, 1},
        {63, 1},
        {-8192, 2},
        {8191, 2},
        {-1048576, 3},
        {1048575, 3},
        {-134217728, 4},
        {134217727, 4},
        {-17179869184LL, 5},
        {17179869183LL, 5},
        {-2199023255552LL, 6},
        {2199023255551LL, 6},
        {-281474976710656LL, 7},
        {281474976710655LL, 7},
        {-36028797018963968LL, 8},
        {36028797018963967LL, 8},
        {-4611686018427387904LL, 9},
        {4611686018427387903LL, 9},
        {std::numeric_limits<std::int64_t>::min(), 10},
        {std::numeric_limits<std::int64_t>::max(), 10},
    };
    for (const auto& row : rows) {
        const auto bytes = pack64(row.value);
        EXPECT_EQ(bytes.size(), row.bytes) << row.value;
        // One more in magnitude needs one more byte (except at the 64-bit limits).
        if (row.bytes < 10) {
            EXPECT_EQ(pack64(row.value < 0 ? row.value - 1 : row.value + 1).size(), row.bytes + 1);
        }
        ByteReader r(bytes);
        EXPECT_EQ(r.packed64("v"), row.value);
        EXPECT_TRUE(r.ok());
        EXPECT_TRUE(r.at_end());
    }
    EXPECT_EQ(pack64(std::numeric_limits<std::int64_t>::min()).back(), 0x7F);
    EXPECT_EQ(pack64(std::numeric_limits<std::int64_t>::max()).back(), 0x00);
}

TEST(Packed, Int32Limits) {
    std::vector<std::uint8_t> out;
    ByteWriter w(out);
    w.packed32(std::numeric_limits<std::int32_t>::min());
    w.packed32(std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(out, (std::vector<std::uint8_t>{0x80, 0x80, 0x80, 0x80, 0x78, 0xFF, 0xFF, 0xFF, 0xFF,
                                              0x07}));
    ByteReader r(out);
    EXPECT_EQ(r.packed32("a"), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(r.packed32("b"), std::numeric_limits<std::int32_t>::max());
    EXPECT_TRUE(r.ok());
}

TEST(Packed, RoundTripsManyValues) {
    for (std::int64_t v = -70000; v <= 70000; v += 7) {
        const auto bytes = pack64(v);
        ByteReader r(bytes);
        ASSERT_EQ(r.packed64("v"), v);
    }
    for (int shift = 0; shift < 63; ++shift) {
        for (std::int64_t v : {std::int64_t{1} << shift, -(std::int64_t{1} << shift)}) {
            const auto bytes = pack64(v);
            ByteReader r(bytes);
            ASSERT_EQ(r.packed64("v"), v);
        }
    }
}

TEST(Packed, RejectsTruncationAndOverflow) {
    {
        const std::vector<std::uint8_t> b{0x80, 0x80};
        ByteReader r(b, Endian::Little, 100, "frame");
        EXPECT_EQ(r.packed64("value"), 0);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(*r.error()->offset, 100U);
        EXPECT_EQ(r.error()->field, "value");
    }
    {
        const std::vector<std::uint8_t> b(11, 0x80);
        ByteReader r(b);
        r.packed64("v");
        EXPECT_FALSE(r.ok());
    }
    {  // 10th byte must be 0x00 or 0x7F
        std::vector<std::uint8_t> b(9, 0xFF);
        b.push_back(0x01);
        ByteReader r(b);
        r.packed64("v");
        EXPECT_FALSE(r.ok());
    }
    {  // fits in 64 bits but not in 32
        const auto bytes = pack64(std::int64_t{1} << 40);
        ByteReader r(bytes);
        r.packed32("v");
        EXPECT_FALSE(r.ok());
    }
}

// Values read from within a longer buffer, as a frame's fields are: the reader's path for a
// value with ten bytes left behind it gives what the general one gives, every width included.
TEST(Packed, ReadsValuesFollowedByMoreBytes) {
    std::vector<std::int64_t> values;
    for (int shift = 0; shift < 63; ++shift) {
        values.push_back(std::int64_t{1} << shift);
        values.push_back(-(std::int64_t{1} << shift));
        values.push_back((std::int64_t{1} << shift) - 1);
    }
    values.push_back(std::numeric_limits<std::int64_t>::max());
    values.push_back(std::numeric_limits<std::int64_t>::min());
    std::vector<std::uint8_t> bytes;
    for (const auto v : values) ByteWriter(bytes).packed64(v);
    ByteReader r(bytes);
    for (const auto v : values) ASSERT_EQ(r.packed64("v"), v);
    EXPECT_TRUE(r.at_end());
    EXPECT_TRUE(r.ok());
}

TEST(Packed, RejectsOverflowFollowedByMoreBytes) {
    {  // a bad 10th byte with bytes after it
        std::vector<std::uint8_t> b(9, 0xFF);
        b.push_back(0x01);
        b.resize(20, 0);
        ByteReader r(b);
        r.packed64("v");
        EXPECT_FALSE(r.ok());
    }
    {  // a 5-byte value too large for packed32, then more
        auto bytes = pack64(std::int64_t{1} << 33);
        bytes.resize(bytes.size() + 12, 0);
        ByteReader r(bytes);
        EXPECT_EQ(r.packed32("v"), 0);
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(r.pos(), 0u);
    }
    {  // a packed32 of 6 bytes (a value that fits, padded with a sign byte), then more
        const std::vector<std::uint8_t> b{0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 0, 0, 0, 0, 0, 0};
        ByteReader r(b);
        r.packed32("v");
        EXPECT_FALSE(r.ok());
    }
}

}  // namespace
}  // namespace apcgate::wire
