// Userspace annotation bytes (gator-protocol-v6.8.txt, "Userspace Annotations"): every body
// kind byte-exact, with and without colour, int16 truncation, and parsing them back.
#include <gtest/gtest.h>

#include <algorithm>

#include "apc_test_support.hpp"
#include "protocol/apc/annotation_bytes.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::cat;
using testing::raw;

Bytes bytes_of(const model::AnnotationBody& body, std::size_t* truncated = nullptr) {
    Bytes out;
    const std::size_t n = append_annotation_bytes(body, out);
    if (truncated != nullptr) *truncated = n;
    return out;
}

TEST(AnnotationBytes, AsciiTextWithAndWithoutColour) {
    EXPECT_EQ(bytes_of(model::TextAnnotation{std::nullopt, "hello"}), raw("hello\n").b);
    EXPECT_EQ(bytes_of(model::TextAnnotation{model::Rgb{1, 10, 3}, "x"}),
              Bytes({0x1B, 0x01, 0x0A, 0x03, 'x', '\n'}));
}

TEST(AnnotationBytes, Utf8StringOnChannel) {
    // Colour counts against the int16 length: 4 + 2 = 6.
    EXPECT_EQ(
        bytes_of(model::StringAnnotation{3, model::Rgb{1, 2, 3}, "ab"}),
        Bytes({0x1C, 0x06, 0x03, 0x00, 0x00, 0x00, 0x06, 0x00, 0x1B, 0x01, 0x02, 0x03, 'a', 'b'}));
    EXPECT_EQ(bytes_of(model::StringAnnotation{-1, std::nullopt, "ab"}),
              Bytes({0x1C, 0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x00, 'a', 'b'}));
    // An empty string ends the channel's span: just the header.
    EXPECT_EQ(bytes_of(model::StringAnnotation{0, std::nullopt, ""}),
              Bytes({0x1C, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}));
}

TEST(AnnotationBytes, Marker) {
    EXPECT_EQ(bytes_of(model::MarkerAnnotation{model::Rgb{0x10, 0x20, 0x30}, "m"}),
              Bytes({0x1C, 0x05, 0x05, 0x00, 0x1B, 0x10, 0x20, 0x30, 'm'}));
    EXPECT_EQ(bytes_of(model::MarkerAnnotation{std::nullopt, "mk"}),
              Bytes({0x1C, 0x05, 0x02, 0x00, 'm', 'k'}));
}

TEST(AnnotationBytes, GroupAndChannelNames) {
    EXPECT_EQ(bytes_of(model::GroupName{2, "g"}),
              Bytes({0x1C, 0x08, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 'g'}));
    EXPECT_EQ(
        bytes_of(model::ChannelName{3, 2, "ch"}),
        Bytes({0x1C, 0x07, 0x03, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 'c', 'h'}));
}

TEST(AnnotationBytes, VisualAndRaw) {
    EXPECT_EQ(bytes_of(model::VisualAnnotation{"v", {9, 8, 7}}),
              Bytes({0x1C, 0x04, 0x01, 0x00, 'v', 0x03, 0x00, 0x00, 0x00, 9, 8, 7}));
    EXPECT_EQ(bytes_of(model::RawAnnotation{{1, 2, 0x1C}}), Bytes({1, 2, 0x1C}));
}

TEST(AnnotationBytes, Int16LengthTruncatesAtUtf8Boundary) {
    std::string text;
    for (int i = 0; i < 40000; ++i) text += "\xC3\xA9";  // U+00E9, two bytes
    std::size_t truncated = 0;
    const Bytes b = bytes_of(model::StringAnnotation{0, model::Rgb{1, 2, 3}, text}, &truncated);
    EXPECT_EQ(truncated, 1U);
    // 32767 - 4 colour bytes = 32763 would cut a character: 32762 text bytes remain.
    ASSERT_EQ(b.size(), 8U + 4U + 32762U);
    EXPECT_EQ(b[6], 0xFE);  // 4 + 32762 = 32766
    EXPECT_EQ(b[7], 0x7F);
    EXPECT_EQ(b.back(), 0xA9);
    // Exactly 32767 bytes fit without truncation.
    const Bytes g = bytes_of(model::GroupName{0, std::string(32767, 'g')}, &truncated);
    EXPECT_EQ(truncated, 0U);
    EXPECT_EQ(g[6], 0xFF);
    EXPECT_EQ(g[7], 0x7F);
    EXPECT_EQ(g.size(), 8U + 32767U);
}

TEST(AnnotationBytes, SizeIsExactlyWhatIsWrittenForEveryKind) {
    std::string long_text;
    for (int i = 0; i < 40000; ++i) long_text += "\xC3\xA9";  // cut at a UTF-8 boundary
    const model::Rgb red{255, 0, 0};
    const std::vector<model::AnnotationBody> bodies = {
        model::TextAnnotation{std::nullopt, "hello"},
        model::TextAnnotation{red, ""},
        model::StringAnnotation{3, std::nullopt, "fn(long) [42]"},
        model::StringAnnotation{3, red, ""},
        model::StringAnnotation{0, red, long_text},
        model::MarkerAnnotation{red, "mark"},
        model::MarkerAnnotation{std::nullopt, long_text},
        model::GroupName{1, "group"},
        model::GroupName{0, std::string(32767, 'g')},
        model::ChannelName{2, 1, long_text},
        model::VisualAnnotation{"v", {9, 8, 7}},
        model::VisualAnnotation{long_text, {}},
        model::RawAnnotation{{1, 2, 0x1C}},
    };
    for (std::size_t i = 0; i < bodies.size(); ++i)
        EXPECT_EQ(annotation_bytes_size(bodies[i]), bytes_of(bodies[i]).size()) << "body " << i;
}

// The encoder writes an annotation that fits its frame in place: the same bytes and truncation
// count as appending, and nothing past them.
TEST(AnnotationBytes, WrittenInPlaceEqualsAppended) {
    std::string long_text;
    for (int i = 0; i < 20000; ++i) long_text += "\xC3\xA9";  // over the int16 limit
    const model::Rgb red{255, 0, 0};
    const std::vector<model::AnnotationBody> bodies = {
        model::TextAnnotation{red, "hello"},
        model::StringAnnotation{3, std::nullopt, "fn(long) [42]"},
        model::StringAnnotation{3, std::nullopt, ""},
        model::StringAnnotation{0, red, long_text},
        model::MarkerAnnotation{std::nullopt, long_text},
        model::GroupName{1, "group"},
        model::ChannelName{2, 1, "chan"},
        model::VisualAnnotation{"v", {9, 8, 7}},
        model::RawAnnotation{{1, 2, 0x1C}},
    };
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::vector<std::uint8_t> appended;
        const std::size_t cut = append_annotation_bytes(bodies[i], appended);
        std::vector<std::uint8_t> placed(appended.size() + 8, 0xEE);
        EXPECT_EQ(write_annotation_bytes(bodies[i], placed.data()), cut) << "body " << i;
        EXPECT_TRUE(std::equal(appended.begin(), appended.end(), placed.begin())) << "body " << i;
        EXPECT_TRUE(std::all_of(placed.begin() + static_cast<std::ptrdiff_t>(appended.size()),
                                placed.end(), [](std::uint8_t b) { return b == 0xEE; }))
            << "body " << i;
    }
    EXPECT_EQ(write_annotation_bytes(bodies[3], std::vector<std::uint8_t>(40000).data()), 1U);
}

TEST(AnnotationParse, EveryKindParsesBackToItsBytes) {
    const model::AnnotationBody bodies[] = {
        model::TextAnnotation{model::Rgb{1, '\n', 3}, "line"},
        model::TextAnnotation{std::nullopt, ""},
        model::StringAnnotation{7, model::Rgb{4, 5, 6}, "str"},
        model::MarkerAnnotation{std::nullopt, "mark"},
        model::GroupName{1, "group"},
        model::ChannelName{2, 1, "chan"},
        model::VisualAnnotation{"pic", {0x89, 'P', 'N', 'G', '\n'}},
    };
    for (const auto& body : bodies) {
        const Bytes b = bytes_of(body);
        auto len = annotation_length(b);
        ASSERT_TRUE(len.ok()) << len.error().to_string();
        ASSERT_TRUE(len.value().has_value());
        EXPECT_EQ(**len, b.size());
        // One byte short is incomplete, not an error.
        auto shorter = annotation_length(std::span(b).first(b.size() - 1));
        ASSERT_TRUE(shorter.ok());
        EXPECT_FALSE(shorter.value().has_value());
        auto parsed = parse_annotation(b);
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        EXPECT_EQ(parsed->index(), body.index());
        EXPECT_EQ(bytes_of(*parsed), b);
    }
}

TEST(AnnotationParse, UnknownCodeAndNegativeLengthAreErrors) {
    const Bytes unknown{0x1C, 0x09, 0, 0};
    auto len = annotation_length(unknown, 500);
    ASSERT_FALSE(len.ok());
    EXPECT_EQ(*len.error().offset, 501U);
    EXPECT_EQ(len.error().field, "code");
    const Bytes negative{0x1C, 0x05, 0xFF, 0xFF};
    auto p = parse_annotation(negative, 10);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().record, "marker annotation");
    EXPECT_NE(p.error().message.find("negative"), std::string::npos);
}

// annotation_length asks for more bytes only when the error is Truncated: a bad value in a
// record that is all there is an error, whatever its words.
TEST(AnnotationParse, ACutRecordIsTruncatedAndABadOneMalformed) {
    const Bytes b = bytes_of(model::MarkerAnnotation{std::nullopt, "mark"});
    auto cut = parse_annotation(std::span(b).first(b.size() - 1), 10);
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().kind, ErrorKind::Truncated) << cut.error().to_string();

    const Bytes unknown{0x1C, 0x09, 0, 0};
    auto len = annotation_length(unknown, 500);
    ASSERT_FALSE(len.ok());
    EXPECT_EQ(len.error().kind, ErrorKind::Malformed);

    const Bytes negative{0x1C, 0x05, 0xFF, 0xFF};
    auto neg_len = annotation_length(negative);
    ASSERT_FALSE(neg_len.ok());  // not "more bytes, please"
    EXPECT_EQ(neg_len.error().kind, ErrorKind::Malformed);
    auto p = parse_annotation(negative, 10);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().kind, ErrorKind::Malformed);

    const Bytes trailing{0x1C, 0x05, 0x00, 0x00, 'x'};
    auto extra = parse_annotation(trailing);
    ASSERT_FALSE(extra.ok());
    EXPECT_EQ(extra.error().kind, ErrorKind::Malformed);
}

}  // namespace
}  // namespace apcgate::apc
