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

// Widths 4 and 8 are one load with a swap when needed; the others are assembled byte by byte.
TEST(ByteReader, ReadsEveryWidthInBothByteOrders) {
    const std::vector<std::uint8_t> b{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    for (const Endian e : {Endian::Little, Endian::Big}) {
        const bool little = e == Endian::Little;
        ByteReader r(b, e);
        EXPECT_EQ(r.u64("u64"), little ? 0x0807060504030201ULL : 0x0102030405060708ULL);
        r.seek(0);
        EXPECT_EQ(r.u32("u32"), little ? 0x04030201U : 0x01020304U);
        EXPECT_EQ(r.uint(3, "u24"), little ? 0x070605U : 0x050607U);
        EXPECT_EQ(r.u8("u8"), 0x08U);
        EXPECT_EQ(r.u32("past the end"), 0U);
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(r.pos(), 8U);
    }
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

// Running out of bytes is told apart from a bad value by the error's kind, not by the
// message: a stream reader asks for more bytes only in the first case.
TEST(ByteReader, RunningOutIsToldApartFromABadValue) {
    const std::vector<std::uint8_t> two{0x01, 0x02};
    ByteReader short_read(two);
    short_read.u32("v");
    ASSERT_FALSE(short_read.ok());
    EXPECT_EQ(short_read.error()->kind, ErrorKind::Truncated);
    EXPECT_TRUE(short_read.take_error().is(ErrorKind::Truncated));

    const std::vector<std::uint8_t> cut_packed{0x80, 0x80};  // continuation bits, then the end
    ByteReader packed(cut_packed);
    packed.packed64("p");
    ASSERT_FALSE(packed.ok());
    EXPECT_EQ(packed.error()->kind, ErrorKind::Truncated);

    const std::vector<std::uint8_t> promised{0x05, 'a', 'b'};  // 5 bytes promised, 2 given
    ByteReader cut_string(promised);
    cut_string.packed_string("s");
    ASSERT_FALSE(cut_string.ok());
    EXPECT_EQ(cut_string.error()->kind, ErrorKind::Truncated);

    const std::vector<std::uint8_t> four{0x01, 0x02, 0x03, 0x04};
    ByteReader bad(four);
    bad.u8("kind");
    bad.fail("unknown kind 1", "kind");
    bad.u32("past the end after the failure");  // a later read past the end changes nothing
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error()->kind, ErrorKind::Malformed);

    const std::vector<std::uint8_t> long_packed(11, 0x80);  // too long: a bad value
    ByteReader too_long(long_packed);
    too_long.packed64("p");
    ASSERT_FALSE(too_long.ok());
    EXPECT_EQ(too_long.error()->kind, ErrorKind::Malformed);

    const std::vector<std::uint8_t> negative{0x7F};  // string length -1
    ByteReader neg(negative);
    neg.packed_string("s");
    ASSERT_FALSE(neg.ok());
    EXPECT_EQ(neg.error()->kind, ErrorKind::Malformed);

    ByteReader seek_past(four);
    seek_past.seek(5);
    ASSERT_FALSE(seek_past.ok());
    EXPECT_EQ(seek_past.error()->kind, ErrorKind::Malformed);

    // A caller's bound on a value is its own kind.
    ByteReader over(four);
    over.fail(ErrorKind::Limit, "count 1000000 exceeds the limit", "count");
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error()->kind, ErrorKind::Limit);
    EXPECT_EQ(over.error()->field, "count");

    ByteReader fine(four);
    fine.u32("v");
    EXPECT_TRUE(fine.ok());
}

}  // namespace
}  // namespace apcgate::wire
