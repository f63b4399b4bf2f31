#include "protocol/wire/byte_reader.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace apcgate::wire {
namespace {

TEST(ByteReader, ReadsBothByteOrders) {
    const std::vector<std::uint8_t> b{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    ByteReader le(b);
    EXPECT_EQ(le.u16("a"), 0x0201);
    EXPECT_EQ(le.u32("b"), 0x06050403U);
    ByteReader be(b, Endian::Big);
    EXPECT_EQ(be.u64("c"), 0x0102030405060708ULL);
    EXPECT_TRUE(le.ok() && be.ok());
}

TEST(ByteReader, FirstErrorSticksWithOffsetRecordAndField) {
    const std::vector<std::uint8_t> b{0xAA, 0xBB, 0xCC};
    ByteReader r(b, Endian::Little, 1000, "capture/0000000000");
    r.set_record("Counter");
    EXPECT_EQ(r.u16("key"), 0xBBAA);
    EXPECT_EQ(r.u32("value"), 0U);  // 1 byte left: fails here
    EXPECT_EQ(r.u8("next"), 0U);    // later reads return zero and do not move
    ASSERT_FALSE(r.ok());
    const Error& e = *r.error();
    EXPECT_EQ(*e.offset, 1002U);
    EXPECT_EQ(e.record, "Counter");
    EXPECT_EQ(e.field, "value");
    EXPECT_EQ(r.pos(), 2U);
    EXPECT_NE(e.to_string().find("capture/0000000000: offset 1002"), std::string::npos);
    EXPECT_NE(e.to_string().find("field 'value'"), std::string::npos);
}

TEST(ByteReader, PackedStringBounds) {
    const std::vector<std::uint8_t> ok{0x03, 'a', 'b', 'c'};
    ByteReader r(ok);
    EXPECT_EQ(r.packed_string("s"), "abc");
    const std::vector<std::uint8_t> past{0x05, 'a'};
    ByteReader r2(past);
    EXPECT_EQ(r2.packed_string("s"), "");
    EXPECT_FALSE(r2.ok());
    const std::vector<std::uint8_t> neg{0x7F};  // -1
    ByteReader r3(neg);
    r3.packed_string("s");
    EXPECT_FALSE(r3.ok());
}

// Running out of bytes is told apart from a bad value by what the reader saw, not by the
// message: a stream reader asks for more bytes only in the first case.
TEST(ByteReader, RunningOutIsToldApartFromABadValue) {
    const std::vector<std::uint8_t> two{0x01, 0x02};
    ByteReader short_read(two);
    short_read.u32("v");
    EXPECT_TRUE(short_read.ran_out());

    const std::vector<std::uint8_t> cut_packed{0x80, 0x80};  // continuation bits, then the end
    ByteReader packed(cut_packed);
    packed.packed64("p");
    EXPECT_FALSE(packed.ok());
    EXPECT_TRUE(packed.ran_out());

    const std::vector<std::uint8_t> four{0x01, 0x02, 0x03, 0x04};
    ByteReader bad(four);
    bad.u8("kind");
    bad.fail("unknown kind 1", "kind");
    bad.u32("past the end after the failure");  // a later read past the end changes nothing
    EXPECT_FALSE(bad.ok());
    EXPECT_FALSE(bad.ran_out());

    const std::vector<std::uint8_t> long_packed(11, 0x80);  // too long: a bad value
    ByteReader too_long(long_packed);
    too_long.packed64("p");
    EXPECT_FALSE(too_long.ok());
    EXPECT_FALSE(too_long.ran_out());

    ByteReader fine(four);
    fine.u32("v");
    EXPECT_TRUE(fine.ok());
    EXPECT_FALSE(fine.ran_out());
}

}  // namespace
}  // namespace apcgate::wire
