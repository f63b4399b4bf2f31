// The tokenizer on hand-built bytes: records split by their size field (12-bit, or 32-bit for
// large records), byte order from the magic record, and the two ways a split has to stop.
#include "collectors/fxt/tokenizer.hpp"

#include <gtest/gtest.h>

#include "collectors/fxt/fxt_ingest.hpp"
#include "fxt_writer.hpp"

namespace apcgate::collectors::fxt {
namespace {

using fxt_test::FxtWriter;

std::vector<RawRecord> split(const std::vector<std::uint8_t>& bytes, wire::Endian endian,
                             std::optional<Error>* error = nullptr) {
    Tokenizer t(bytes, endian);
    std::vector<RawRecord> out;
    for (;;) {
        auto r = t.next();
        if (!r) {
            if (error != nullptr) *error = r.error();
            break;
        }
        if (!*r) break;
        out.push_back(**r);
    }
    return out;
}

// next_whole() hands out what next() would, and leaves to next() (consuming nothing) the end,
// a size of 0, a size past the end and a partial header.
TEST(FxtTokenizer, NextWholeGivesWhatNextGivesAndLeavesItTheRest) {
    auto both = [](const std::vector<std::uint8_t>& bytes, wire::Endian endian) -> std::size_t {
        std::optional<Error> error;
        const auto expected = split(bytes, endian, &error);
        Tokenizer t(bytes, endian);
        std::vector<RawRecord> got;
        RawRecord raw;
        while (t.next_whole(raw)) got.push_back(raw);
        const std::size_t stopped_at = t.position();
        auto rest = t.next();
        EXPECT_EQ(t.position(), stopped_at);  // next() found nothing whole either
        EXPECT_EQ(!rest.ok(), error.has_value());
        if (!rest.ok() && error) {
            EXPECT_EQ(rest.error().offset, error->offset);
            EXPECT_EQ(rest.error().message, error->message);
        } else if (rest.ok()) {
            EXPECT_FALSE(rest->has_value());
        }
        EXPECT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < std::min(got.size(), expected.size()); ++i) {
            EXPECT_EQ(got[i].offset, expected[i].offset);
            EXPECT_EQ(got[i].header, expected[i].header);
            EXPECT_EQ(got[i].bytes.data(), expected[i].bytes.data());
            EXPECT_EQ(got[i].bytes.size(), expected[i].bytes.size());
        }
        return got.size();
    };
    FxtWriter w;
    w.magic();
    w.initialization(19'200'000);
    w.large_blob(1, fxt_test::inl("c"), fxt_test::inl("n"), 0, {}, std::string(40000, 'x'));
    w.string_record(1, "thirteen char");
    EXPECT_EQ(both(w.bytes(), wire::Endian::Little), 4U);  // to the end
    FxtWriter big(true);
    big.magic();
    big.initialization(19'200'000);
    EXPECT_EQ(both(big.bytes(), wire::Endian::Big), 2U);
    FxtWriter zero = w;
    zero.raw_word(0x0016547846040000ULL);  // size 0
    zero.magic();
    EXPECT_EQ(both(zero.bytes(), wire::Endian::Little), 4U);
    auto past = w.bytes();
    const std::uint64_t header = 0x0016547846040000ULL | (3U << 4);  // 3 words, 1 there
    for (int b = 0; b < 8; ++b) past.push_back(static_cast<std::uint8_t>(header >> (8 * b)));
    EXPECT_EQ(both(past, wire::Endian::Little), 4U);
    auto partial = w.bytes();
    partial.resize(partial.size() + 5, 0);
    EXPECT_EQ(both(partial, wire::Endian::Little), 4U);
}

TEST(FxtTokenizer, SplitsRecordsBySizeField) {
    FxtWriter w;
    w.magic();                            // 1 word
    w.initialization(19'200'000);         // 2 words
    w.string_record(1, "thirteen char");  // 1 + 2 words
    const auto records = split(w.bytes(), wire::Endian::Little);
    ASSERT_EQ(records.size(), 3U);
    EXPECT_EQ(records[0].offset, 0U);
    EXPECT_EQ(records[0].header, 0x0016547846040010ULL);
    EXPECT_EQ(records[1].offset, 8U);
    EXPECT_EQ(records[1].bytes.size(), 16U);
    EXPECT_EQ(records[2].offset, 24U);
    EXPECT_EQ(records[2].bytes.size(), 24U);
}

TEST(FxtTokenizer, LargeRecordsUseThe32BitSize) {
    FxtWriter w;
    // 40000 payload bytes: more words than the 12-bit size field can hold.
    w.large_blob(1, fxt_test::inl("c"), fxt_test::inl("n"), 0, {}, std::string(40000, 'x'));
    w.magic();
    const auto records = split(w.bytes(), wire::Endian::Little);
    ASSERT_EQ(records.size(), 2U);
    EXPECT_EQ(records[0].bytes.size(), w.size() - 8);
    EXPECT_GT(records[0].bytes.size() / 8, 0xfffU);
    EXPECT_EQ(records[1].header, 0x0016547846040010ULL);
}

TEST(FxtTokenizer, DetectsByteOrderFromTheMagicRecord) {
    FxtWriter little;
    little.magic();
    FxtWriter big(true);
    big.magic();
    big.initialization(1000);
    EXPECT_EQ(detect_endian(little.bytes()), wire::Endian::Little);
    EXPECT_EQ(detect_endian(big.bytes()), wire::Endian::Big);
    EXPECT_TRUE(starts_with_magic(little.bytes()));
    EXPECT_TRUE(starts_with_magic(big.bytes()));
    EXPECT_TRUE(sniff("x.fxt", big.bytes()));
    const std::vector<std::uint8_t> other{0x10, 0, 4, 0x46, 0x78, 0x54, 0x16, 1};
    EXPECT_FALSE(starts_with_magic(other));
    EXPECT_FALSE(sniff("x.fxt", std::span<const std::uint8_t>(other).first(7)));
    const auto records = split(big.bytes(), wire::Endian::Big);
    ASSERT_EQ(records.size(), 2U);
    EXPECT_EQ(records[1].bytes.size(), 16U);  // size read from the big-endian header
}

TEST(FxtTokenizer, SizeZeroStopsWithOffsetAndKind) {
    FxtWriter w;
    w.magic();
    w.raw_word(0x0016547846040000ULL);  // a magic record header with size 0
    w.magic();
    std::optional<Error> error;
    const auto records = split(w.bytes(), wire::Endian::Little, &error);
    EXPECT_EQ(records.size(), 1U);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->offset, std::optional<std::uint64_t>(8));
    EXPECT_EQ(error->record, "magic number");
    EXPECT_NE(error->message.find("size is 0"), std::string::npos);
    EXPECT_EQ(error->kind, ErrorKind::Malformed);
}

TEST(FxtTokenizer, SizePastTheEndIsATruncatedTail) {
    FxtWriter w;
    w.magic();
    w.string_record(1, "a string of 24 bytes....");  // 4 words
    auto bytes = w.take();
    bytes.resize(bytes.size() - 8);
    std::optional<Error> error;
    const auto records = split(bytes, wire::Endian::Little, &error);
    EXPECT_EQ(records.size(), 1U);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->offset, std::optional<std::uint64_t>(8));
    EXPECT_EQ(error->record, "string");
    EXPECT_NE(error->message.find("truncated"), std::string::npos);
    EXPECT_EQ(error->kind, ErrorKind::Truncated);
}

TEST(FxtTokenizer, PartialHeaderAtTheEndIsTruncation) {
    FxtWriter w;
    w.magic();
    auto bytes = w.take();
    bytes.insert(bytes.end(), {1, 2, 3});
    std::optional<Error> error;
    EXPECT_EQ(split(bytes, wire::Endian::Little, &error).size(), 1U);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->offset, std::optional<std::uint64_t>(8));
    EXPECT_EQ(error->kind, ErrorKind::Truncated);
}

TEST(FxtTokenizer, OffsetsIncludeTheBase) {
    FxtWriter w;
    w.magic();
    Tokenizer t(w.bytes(), wire::Endian::Little, 4096);
    auto r = t.next();
    ASSERT_TRUE(r && *r);
    EXPECT_EQ((*r)->offset, 4096U);
    EXPECT_EQ(t.position(), 8U);
}

}  // namespace
}  // namespace apcgate::collectors::fxt
