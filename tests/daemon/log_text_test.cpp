// Client text in the log: one line, no control bytes, bounded, many names summarised.
#include "daemon/service/log_text.hpp"

#include <gtest/gtest.h>

namespace apcgate::daemon {
namespace {

TEST(Loggable, NewlinesAndControlBytesBecomeEscapes) {
    EXPECT_EQ(loggable("a\nb"), "a\\nb");
    EXPECT_EQ(loggable("a\r\tb"), "a\\r\\tb");
    EXPECT_EQ(loggable("\x1b[31mred"), "\\x1b[31mred");
    EXPECT_EQ(loggable(std::string("nul\0x", 5)), "nul\\x00x");
    EXPECT_EQ(loggable("del\x7f"), "del\\x7f");
    // A backslash is doubled, so "\n" in the log always means an escaped newline.
    EXPECT_EQ(loggable("a\\nb"), "a\\\\nb");
}

TEST(Loggable, ValidUtf8StaysAndEverythingElseIsEscaped) {
    EXPECT_EQ(loggable("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // café €
    EXPECT_EQ(loggable("\xc2\x9b"
                       "2J"),
              "\\xc2\\x9b2J");                               // U+009B, a C1 CSI
    EXPECT_EQ(loggable("\xe2\x80\xa8"), "\\xe2\\x80\\xa8");  // U+2028 line separator
    EXPECT_EQ(loggable("\xff\xfe"), "\\xff\\xfe");           // not UTF-8
    EXPECT_EQ(loggable("\xc3"), "\\xc3");                    // truncated sequence
    EXPECT_EQ(loggable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
    EXPECT_EQ(loggable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(Loggable, LongTextIsCutAndSaysHowLongItWas) {
    const std::string long_text(10000, 'x');
    const std::string out = loggable(long_text, 16);
    EXPECT_EQ(out, std::string(16, 'x') + "...(10000 bytes)");
    // Never half a UTF-8 character.
    EXPECT_EQ(loggable("ab\xc3\xa9", 3), "ab...(4 bytes)");
    EXPECT_EQ(loggable("short", 16), "short");
}

TEST(LoggableExamples, ManyNamesMakeOneBoundedLine) {
    std::vector<std::string> names;
    names.reserve(30000);
    for (int i = 0; i < 30000; ++i) names.push_back("counter_" + std::to_string(i));
    names[1] = "evil\nFORGED";
    const std::string line = loggable_examples(names);
    EXPECT_EQ(line, "counter_0, evil\\nFORGED, counter_2 and 29997 more");
    EXPECT_EQ(loggable_examples({"a", "b"}), "a, b");
    EXPECT_EQ(loggable_examples({}), "");
}

}  // namespace
}  // namespace apcgate::daemon
