// Attribute value spellings (booleans, decimal, hex, doubles) and the text sanitiser.
#include "xml/attribute_values.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "xml/xml_text.hpp"

namespace apcgate::xml {
namespace {

TEST(AttributeValues, BooleansInEverySpelling) {
    for (const char* yes : {"yes", "YES", "true", "True", "1", " yes "})
        EXPECT_EQ(parse_bool(yes), true) << yes;
    for (const char* no : {"no", "No", "false", "FALSE", "0"})
        EXPECT_EQ(parse_bool(no), false) << no;
    for (const char* bad : {"", "maybe", "2", "y", "yess"}) EXPECT_FALSE(parse_bool(bad)) << bad;
}

TEST(AttributeValues, HexWithAndWithoutPrefix) {
    EXPECT_EQ(parse_hex("0xff"), 0xffU);
    EXPECT_EQ(parse_hex("0XFF"), 0xffU);
    EXPECT_EQ(parse_hex("FF"), 0xffU);
    EXPECT_EQ(parse_hex("10"), 0x10U);
    EXPECT_EQ(parse_hex(" 0x8 "), 0x8U);
    EXPECT_EQ(parse_hex("0xffffffffffffffff"), 0xffffffffffffffffULL);
    for (const char* bad : {"", "0x", "0xg", "-1", "+1", "0x1 2", "0x10000000000000000"})
        EXPECT_FALSE(parse_hex(bad)) << bad;
}

TEST(AttributeValues, Decimal) {
    EXPECT_EQ(parse_decimal("0"), 0);
    EXPECT_EQ(parse_decimal("-12"), -12);
    EXPECT_EQ(parse_decimal("+12"), 12);
    EXPECT_EQ(parse_decimal("9223372036854775807"), INT64_MAX);
    for (const char* bad : {"", "1.5", "0x10", "12a", "+-1", "9223372036854775808"})
        EXPECT_FALSE(parse_decimal(bad)) << bad;
}

TEST(AttributeValues, Doubles) {
    EXPECT_EQ(parse_double("0.001"), 0.001);
    EXPECT_EQ(parse_double("1e-3"), 0.001);
    EXPECT_FALSE(parse_double("inf"));
    EXPECT_FALSE(parse_double("nan"));
    EXPECT_FALSE(parse_double("1.0x"));
    EXPECT_EQ(parse_double(format_double(0.1 + 0.2)), 0.1 + 0.2);
}

TEST(AttributeValues, FormatHexPadsToMinimumDigits) {
    EXPECT_EQ(format_hex(0x41d03), "0x41d03");
    EXPECT_EQ(format_hex(0), "0x0");
    EXPECT_EQ(format_hex(0xff8000, 8), "0x00ff8000");
}

TEST(AttributeValues, PrintableExcerptBoundsAndCleansMessages) {
    EXPECT_EQ(printable_excerpt("a\x01\xff"), "a??");
    EXPECT_EQ(printable_excerpt(std::string(100, 'x')), std::string(40, 'x') + "...");
}

TEST(XmlText, KeepsValidUtf8AndDropsInvalidBytes) {
    EXPECT_EQ(sanitize_xml_text("Temp \xC2\xB0"
                                "C \xE2\x82\xAC \xF0\x9F\x98\x80"),
              "Temp \xC2\xB0"
              "C \xE2\x82\xAC \xF0\x9F\x98\x80");
    EXPECT_EQ(sanitize_xml_text("a\xFF"
                                "b"),
              "ab");  // never valid
    EXPECT_EQ(sanitize_xml_text("a\xC0\xAF"
                                "b"),
              "ab");  // overlong '/'
    EXPECT_EQ(sanitize_xml_text("a\xED\xA0\x80"
                                "b"),
              "ab");  // surrogate U+D800
    EXPECT_EQ(sanitize_xml_text("a\xF4\x90\x80\x80"
                                "b"),
              "ab");                                 // beyond U+10FFFF
    EXPECT_EQ(sanitize_xml_text("a\xE2\x82"), "a");  // truncated
    EXPECT_EQ(sanitize_xml_text("\xC3"
                                "A"),
              "A");  // lead byte, no continuation
}

TEST(XmlText, DropsCharactersXmlCannotCarry) {
    using namespace std::string_literals;
    EXPECT_EQ(sanitize_xml_text("a\0b\x01\x1f\x7f"
                                "c"s),
              "abc");
    EXPECT_EQ(sanitize_xml_text("a\xC2\x85"
                                "b"),
              "ab");  // C1 control NEL
    EXPECT_EQ(sanitize_xml_text("a\xEF\xBF\xBF"
                                "b"),
              "ab");                                           // U+FFFF
    EXPECT_EQ(sanitize_xml_text("a\tb\nc\rd"), "a\tb\nc\rd");  // allowed whitespace stays
}

TEST(XmlText, EscapesMarkupAndWhitespaceInAttributes) {
    std::string out;
    append_attribute_value(out, "<&\"'>\t\n");
    EXPECT_EQ(out, "&lt;&amp;&quot;&apos;&gt;&#9;&#10;");
}

}  // namespace
}  // namespace apcgate::xml
