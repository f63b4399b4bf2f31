// The pre-pass that makes real clients' near-XML parseable: what it rewrites, and that it leaves
// well-formed documents alone.
#include "xml/sloppy_xml.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/xml/spec_examples.hpp"

namespace apcgate::xml {
namespace {

TEST(SloppyXml, QuotesUnquotedValueBeforeSelfClosingSlash) {
    EXPECT_EQ(quote_unquoted_attributes("<request type=counters/>"),
              "<request type=\"counters\"/>");
}

TEST(SloppyXml, QuotesUnquotedValueBeforeSpaceAndEndTag) {
    EXPECT_EQ(quote_unquoted_attributes("<request type=counters >"),
              "<request type=\"counters\" >");
    EXPECT_EQ(quote_unquoted_attributes("<request type=counters></request>"),
              "<request type=\"counters\"></request>");
}

TEST(SloppyXml, SlashInsideUnquotedValueStaysInTheValue) {
    EXPECT_EQ(quote_unquoted_attributes("<image path=/usr/bin/ls enabled=yes/>"),
              "<image path=\"/usr/bin/ls\" enabled=\"yes\"/>");
}

TEST(SloppyXml, QuoteCharacterInsideUnquotedValueIsEscaped) {
    EXPECT_EQ(quote_unquoted_attributes("<a b=x\"y/>"), "<a b=\"x&quot;y\"/>");
}

TEST(SloppyXml, ValuelessAttributeGetsEmptyValue) {
    EXPECT_EQ(quote_unquoted_attributes("<a flag b='1'/>"), "<a flag =\"\"b='1'/>");
    EXPECT_EQ(quote_unquoted_attributes("<a flag/>"), "<a flag=\"\"/>");
}

TEST(SloppyXml, QuotedValuesMayHoldAngleBracketsAndSlashes) {
    const std::string doc = "<a b='x/>y' c=\"<z>\">t</a>";
    EXPECT_EQ(quote_unquoted_attributes(doc), doc);
}

TEST(SloppyXml, WellFormedSpecExamplesAreUnchanged) {
    for (const std::string_view doc :
         {testing::kSpecRequest, testing::kSpecEvents, testing::kSpecConfiguration,
          testing::kSpecCounters, testing::kSpecSession, testing::kSpecCaptured}) {
        EXPECT_EQ(quote_unquoted_attributes(doc), doc);
    }
}

TEST(SloppyXml, CommentsCdataAndDeclarationsAreCopiedVerbatim) {
    const std::string doc =
        "<?xml version=1.0?><!DOCTYPE x [<!ENTITY e 'v'>]><!-- a=b <c d=e> --><x><![CDATA[<y "
        "z=1>]]></x>";
    EXPECT_EQ(quote_unquoted_attributes(doc), doc);
}

TEST(SloppyXml, UnterminatedInputIsCopiedWithoutOverrun) {
    EXPECT_EQ(quote_unquoted_attributes("<a b="), "<a b=");
    EXPECT_EQ(quote_unquoted_attributes("<a b=c"), "<a b=\"c\"");
    EXPECT_EQ(quote_unquoted_attributes("<a b='c"), "<a b='c");
    EXPECT_EQ(quote_unquoted_attributes("<!-- x"), "<!-- x");
    EXPECT_EQ(quote_unquoted_attributes("<"), "<");
    EXPECT_EQ(quote_unquoted_attributes("<a <b c=d>"), "<a <b c=\"d\">");
}

TEST(SloppyXml, TrimsWhitespaceBomAndTrailingNuls) {
    using namespace std::string_literals;
    EXPECT_EQ(trim_document("  \n<a/>\n\0\0"s), "<a/>");
    EXPECT_EQ(trim_document("\xEF\xBB\xBF<a/>"), "<a/>");
    EXPECT_EQ(trim_document("<a/>\0 \0\r\n"s), "<a/>");
    EXPECT_EQ(trim_document("\0\0"s), "");
}

}  // namespace
}  // namespace apcgate::xml
