#include "protocol/wire/result.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace apcgate {
namespace {

TEST(Error, CarriesTheKindItWasMadeWith) {
    const Error e = Error::at(ErrorKind::Truncated, "need 4 bytes, 2 left");
    EXPECT_EQ(e.kind, ErrorKind::Truncated);
    EXPECT_TRUE(e.is(ErrorKind::Truncated));
    EXPECT_FALSE(e.is(ErrorKind::Malformed));
    EXPECT_EQ(e.message, "need 4 bytes, 2 left");
}

// The kind is for callers, not for people: the text stays what it was, whatever the kind.
TEST(Error, KindDoesNotChangeTheText) {
    const auto made = [](ErrorKind kind) {
        Error e = Error::at(kind, "bad value");
        e.offset = 12;
        e.record = "header";
        e.field = "magic";
        return Error(std::move(e).in_input("f.bin").while_("reading"));
    };
    const Error a = made(ErrorKind::Malformed);
    const Error b = made(ErrorKind::Io);
    EXPECT_EQ(a.to_string(),
              "f.bin: offset 12 (0xc): record 'header', field 'magic': bad value "
              "(while reading)");
    EXPECT_EQ(a.to_string(), b.to_string());
}

// Context and input added on the way up keep the kind the problem was found with.
TEST(Error, KindSurvivesContextAndResult) {
    Result<int> r = Error::at(ErrorKind::Refused, "already exists");
    ASSERT_FALSE(r);
    Error e = std::move(r).take_error().in_input("out.apc").while_("creating the capture");
    EXPECT_TRUE(e.is(ErrorKind::Refused));
    Status st = std::move(e);
    EXPECT_TRUE(st.error().is(ErrorKind::Refused));
}

// A named Error gets its input and context in place, an inner input name staying after the
// outer one, as a temporary's chain does.
TEST(Error, NamedErrorTakesInputAndContextInPlace) {
    Error e = Error::at(ErrorKind::Malformed, "bad value");
    e.input = "session XML";
    e.in_input("f.bin").while_("reading");
    e.while_("loading");
    EXPECT_EQ(e.input, "f.bin: session XML");
    EXPECT_EQ(e.context, (std::vector<std::string>{"reading", "loading"}));
    EXPECT_EQ(e.to_string(), Error(Error::at(ErrorKind::Malformed, "bad value")
                                       .in_input("session XML")
                                       .in_input("f.bin")
                                       .while_("reading")
                                       .while_("loading"))
                                 .to_string());
}

TEST(Error, EveryKindHasAName) {
    EXPECT_STREQ(kind_name(ErrorKind::Io), "io");
    EXPECT_STREQ(kind_name(ErrorKind::Truncated), "truncated");
    EXPECT_STREQ(kind_name(ErrorKind::Malformed), "malformed");
    EXPECT_STREQ(kind_name(ErrorKind::Unsupported), "unsupported");
    EXPECT_STREQ(kind_name(ErrorKind::Limit), "limit");
    EXPECT_STREQ(kind_name(ErrorKind::Usage), "usage");
    EXPECT_STREQ(kind_name(ErrorKind::Refused), "refused");
    EXPECT_STREQ(kind_name(ErrorKind::Internal), "internal");
}

}  // namespace
}  // namespace apcgate
