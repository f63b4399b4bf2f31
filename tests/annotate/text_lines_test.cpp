// The text form's line splitter: colours (whose RGB bytes may be '\n'), CR LF, long lines,
// binary-looking lines, a last line without '\n', and any split of the bytes.
#include "collectors/annotate/text_lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/wire/byte_text.hpp"

namespace apcgate::collectors::annotate {
namespace {

std::vector<TextLine> split(const std::string& text, std::size_t piece = 0,
                            std::size_t max = 4096) {
    TextLineTokenizer t(max);
    std::vector<TextLine> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t n = piece == 0 ? text.size() : std::min(piece, text.size() - pos);
        std::span<const std::uint8_t> in = wire::bytes_of(text).subspan(pos, n);
        while (auto line = t.next(in)) out.push_back(std::move(*line));
        pos += n;
    }
    if (auto last = t.finish()) out.push_back(std::move(*last));
    return out;
}

TEST(TextLines, LinesColoursAndEdges) {
    const std::string colour("\x1b\xff\x0a\x00", 4);  // the RGB bytes hold a '\n'
    const std::string in = std::string("phase 1\n") + colour + "red with LF in colour\n" +
                           "crlf\r\n" + "\n" + "\x1c\x06 binary\n" + "\x1b\x01\x02\x03\x1c ok\n" +
                           "last without newline";
    for (std::size_t piece : {0, 1, 2, 5}) {
        SCOPED_TRACE(piece);
        const auto lines = split(in, piece);
        ASSERT_EQ(lines.size(), 7U);
        EXPECT_EQ(lines[0].text, "phase 1");
        EXPECT_FALSE(lines[0].colour);
        EXPECT_EQ(lines[0].offset, 0U);
        ASSERT_TRUE(lines[1].colour);
        EXPECT_EQ(*lines[1].colour, (model::Rgb{0xff, 0x0a, 0x00}));
        EXPECT_EQ(lines[1].text, "red with LF in colour");
        EXPECT_EQ(lines[1].offset, 8U);
        EXPECT_EQ(lines[2].text, "crlf");
        EXPECT_EQ(lines[3].text, "");
        EXPECT_TRUE(lines[4].binary);
        EXPECT_FALSE(lines[5].binary) << "after a colour, 0x1C is just text";
        EXPECT_EQ(lines[5].text, "\x1c ok");
        EXPECT_EQ(lines[6].text, "last without newline");
        for (const auto& l : lines) EXPECT_FALSE(l.truncated);
    }
}

TEST(TextLines, LongLinesAreCutAndTheRestSkipped) {
    const std::string in = std::string(10000, 'x') + "\nnext\n";
    for (std::size_t piece : {0, 333}) {
        const auto lines = split(in, piece, 100);
        ASSERT_EQ(lines.size(), 2U);
        EXPECT_EQ(lines[0].text, std::string(100, 'x'));
        EXPECT_TRUE(lines[0].truncated);
        EXPECT_EQ(lines[1].text, "next");
        EXPECT_EQ(lines[1].offset, 10001U);
    }
}

TEST(TextLines, NothingPendingNothingAtFinish) {
    EXPECT_TRUE(split("").empty());
    EXPECT_EQ(split("a\n").size(), 1U);
    const auto cut_colour = split("\x1b\x01");
    ASSERT_EQ(cut_colour.size(), 1U);
    EXPECT_EQ(cut_colour[0].text, "");
}

}  // namespace
}  // namespace apcgate::collectors::annotate
