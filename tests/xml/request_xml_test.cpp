// Request XML (command 0) in the forms clients really send, and delivered-document detection.
#include <gtest/gtest.h>

#include <string>

#include "tests/xml/spec_examples.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

RequestType request_ok(std::string_view doc) {
    auto r = parse_request(doc);
    EXPECT_TRUE(r.ok()) << doc << " -> " << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? *r : RequestType::Defaults;
}

TEST(RequestXml, SpecExample) {
    EXPECT_EQ(request_ok(testing::kSpecRequest), RequestType::Events);
}

TEST(RequestXml, EveryTypeOfTheSeed) {
    EXPECT_EQ(request_ok(R"(<request type="events"/>)"), RequestType::Events);
    EXPECT_EQ(request_ok(R"(<request type="configuration"/>)"), RequestType::Configuration);
    EXPECT_EQ(request_ok(R"(<request type="counters"/>)"), RequestType::Counters);
    EXPECT_EQ(request_ok(R"(<request type="captured"/>)"), RequestType::Captured);
    EXPECT_EQ(request_ok(R"(<request type="defaults"/>)"), RequestType::Defaults);
}

TEST(RequestXml, SloppyFormsRealClientsSend) {
    using namespace std::string_literals;
    EXPECT_EQ(request_ok("<request type=counters/>"), RequestType::Counters);
    EXPECT_EQ(request_ok("<request type=counters >"), RequestType::Counters);
    EXPECT_EQ(request_ok("<request type=counters></request>"), RequestType::Counters);
    EXPECT_EQ(request_ok("<request type='captured'/>"), RequestType::Captured);
    // Only a start tag: the seed's example without its end tag.
    EXPECT_EQ(request_ok("<?xml version=\"1.0\"?>\n<request type=\"events\">\n"),
              RequestType::Events);
    EXPECT_EQ(request_ok("\n  <request type=\"events\"/>  \n"), RequestType::Events);
    EXPECT_EQ(request_ok("<request type=\"defaults\"/>\0\0\0"s), RequestType::Defaults);
    EXPECT_EQ(request_ok("<request type=\"Events\"/>"), RequestType::Events);
    EXPECT_EQ(request_ok("<request other=\"x\" type=\"configuration\"><unknown/></request>"),
              RequestType::Configuration);
}

TEST(RequestXml, UnknownTypeIsAnErrorNamingIt) {
    auto r = parse_request(R"(<request type="foo"/>)");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().input, "request XML");
    EXPECT_EQ(r.error().record, "request");
    EXPECT_EQ(r.error().field, "type");
    EXPECT_NE(r.error().message.find("unknown request type 'foo'"), std::string::npos)
        << r.error().message;
}

TEST(RequestXml, MissingTypeIsAnError) {
    auto r = parse_request("<request/>");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "type");
    EXPECT_NE(r.error().message.find("missing"), std::string::npos);
}

TEST(RequestXml, OtherRootIsAnError) {
    auto r = parse_request(R"(<session type="events"/>)");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("<session>"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("<request>"), std::string::npos);
}

TEST(RequestXml, NotXmlIsAnError) {
    EXPECT_FALSE(parse_request("GET / HTTP/1.1").ok());
    EXPECT_FALSE(parse_request("<request type=\"events\"").ok());                // tag never ends
    EXPECT_FALSE(parse_request("<request type=\"events\"><a></request>").ok());  // mismatched
    EXPECT_FALSE(parse_request("<request type=\"events\"><a/>").ok());  // children, cut short
}

TEST(ClassifyDelivered, ByRootElement) {
    EXPECT_EQ(classify_delivered(testing::kSpecSession), DeliveredKind::Session);
    EXPECT_EQ(classify_delivered(testing::kSpecConfiguration), DeliveredKind::Configuration);
    EXPECT_EQ(classify_delivered("<configurations revision=3/>"), DeliveredKind::Configuration);
    EXPECT_EQ(classify_delivered(testing::kSpecCaptured), DeliveredKind::Other);
    EXPECT_EQ(classify_delivered(""), DeliveredKind::Other);
    EXPECT_EQ(classify_delivered("\x01\x02garbage"), DeliveredKind::Other);
}

}  // namespace
}  // namespace apcgate::xml
