// Session XML: the seed's example, every buffer_mode and sample_rate, defaults, errors, and the
// document we write for local captures.
#include <gtest/gtest.h>

#include <string>

#include "tests/xml/spec_examples.hpp"
#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

using model::BufferMode;
using model::SampleRate;

TEST(SessionXml, SpecExample) {
    auto s = parse_session(testing::kSpecSession);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    EXPECT_TRUE(s->call_stack_unwinding);
    EXPECT_EQ(s->buffer_mode, BufferMode::Streaming);
    EXPECT_EQ(s->sample_rate, SampleRate::Low);
    EXPECT_EQ(s->duration_s, 0);
    EXPECT_EQ(s->live_rate_ms, 100);
    EXPECT_EQ(s->session_xml, testing::kSpecSession);  // kept exactly as delivered
}

TEST(SessionXml, EveryBufferMode) {
    const std::pair<const char*, BufferMode> modes[] = {{"streaming", BufferMode::Streaming},
                                                        {"small", BufferMode::Small},
                                                        {"medium", BufferMode::Medium},
                                                        {"normal", BufferMode::Normal},
                                                        {"large", BufferMode::Large}};
    for (const auto& [name, mode] : modes) {
        auto s = parse_session(std::string("<session buffer_mode=\"") + name + "\"/>");
        ASSERT_TRUE(s.ok()) << name;
        EXPECT_EQ(s->buffer_mode, mode) << name;
    }
}

TEST(SessionXml, EverySampleRate) {
    const std::pair<const char*, SampleRate> rates[] = {{"none", SampleRate::None},
                                                        {"low", SampleRate::Low},
                                                        {"normal", SampleRate::Normal},
                                                        {"high", SampleRate::High}};
    for (const auto& [name, rate] : rates) {
        auto s = parse_session(std::string("<session sample_rate='") + name + "'/>");
        ASSERT_TRUE(s.ok()) << name;
        EXPECT_EQ(s->sample_rate, rate) << name;
    }
}

TEST(SessionXml, MissingAttributesKeepDefaults) {
    auto s = parse_session("<session version=\"1\"/>");
    ASSERT_TRUE(s.ok());
    const model::CaptureSettings defaults;
    EXPECT_EQ(s->call_stack_unwinding, defaults.call_stack_unwinding);
    EXPECT_EQ(s->buffer_mode, defaults.buffer_mode);
    EXPECT_EQ(s->sample_rate, defaults.sample_rate);
    EXPECT_EQ(s->duration_s, defaults.duration_s);
    EXPECT_EQ(s->live_rate_ms, defaults.live_rate_ms);
}

TEST(SessionXml, ValuesAndBooleanSpellings) {
    auto s = parse_session(
        "<session call_stack_unwinding=false buffer_mode=large duration=30 live_rate=0/>");
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    EXPECT_FALSE(s->call_stack_unwinding);
    EXPECT_EQ(s->buffer_mode, BufferMode::Large);
    EXPECT_EQ(s->duration_s, 30);
    EXPECT_EQ(s->live_rate_ms, 0);  // 0 is allowed: no live view
}

TEST(SessionXml, ErrorsNameTheAttribute) {
    const std::pair<const char*, const char*> bad[] = {
        {"<session buffer_mode=\"huge\"/>", "buffer_mode"},
        {"<session sample_rate=\"max\"/>", "sample_rate"},
        {"<session duration=\"-1\"/>", "duration"},
        {"<session duration=\"ten\"/>", "duration"},
        {"<session live_rate=\"99999999999\"/>", "live_rate"},
        {"<session call_stack_unwinding=\"maybe\"/>", "call_stack_unwinding"}};
    for (const auto& [doc, attr] : bad) {
        auto s = parse_session(doc);
        ASSERT_FALSE(s.ok()) << doc;
        EXPECT_EQ(s.error().input, "session XML");
        EXPECT_EQ(s.error().record, "session");
        EXPECT_EQ(s.error().field, attr);
        EXPECT_NE(s.error().to_string().find(attr), std::string::npos);
    }
}

TEST(SessionXml, WrittenDocumentReadsBack) {
    model::CaptureSettings in;
    in.call_stack_unwinding = false;
    in.buffer_mode = BufferMode::Medium;
    in.sample_rate = SampleRate::High;
    in.duration_s = 12;
    in.live_rate_ms = 0;
    const std::string doc = write_session(in);
    EXPECT_TRUE(testing::pugixml_accepts(doc));
    EXPECT_NE(doc.find("version=\"1\""), std::string::npos);
    auto out = parse_session(doc);
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    EXPECT_EQ(out->call_stack_unwinding, in.call_stack_unwinding);
    EXPECT_EQ(out->buffer_mode, in.buffer_mode);
    EXPECT_EQ(out->sample_rate, in.sample_rate);
    EXPECT_EQ(out->duration_s, in.duration_s);
    EXPECT_EQ(out->live_rate_ms, in.live_rate_ms);
    EXPECT_EQ(out->session_xml, doc);
}

TEST(SessionXml, WrongRootIsAnError) {
    auto s = parse_session(testing::kSpecConfiguration);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("<configurations>"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::xml
