// Captured XML: written from a capture's info and keyed counters, read back, and the seed's
// example read.
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>

#include "tests/xml/spec_examples.hpp"
#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

model::CaptureInfo sample_info() {
    model::CaptureInfo info;
    info.target.name = "board-1";
    info.target.cores = 4;
    info.target.cpuid = 0x41d03;
    info.target.sample_rate_hz = 1009;
    info.target.supports_live = false;
    info.created = 1700000000;
    info.local_capture = true;
    return info;
}

model::CaptureCounters sample_counters(const model::CounterCatalog& catalog) {
    model::Configuration config;
    config.counters.push_back({"ARMv8_Cortex_A53_ccnt", std::nullopt, std::nullopt, 4});
    config.counters.push_back({"ARMv8_Cortex_A53_cnt0", 0x8, 100000, std::nullopt});
    config.counters.push_back({"Linux_meminfo_memused2", std::nullopt, std::nullopt, std::nullopt});
    config.counters.push_back({"not_on_this_target", std::nullopt, std::nullopt, std::nullopt});
    return model::CaptureCounters::assign(catalog, config);
}

TEST(CapturedXml, WrittenAttributes) {
    const model::CounterCatalog catalog = testing::make_test_catalog();
    const std::string doc = write_captured(sample_info(), sample_counters(catalog));
    pugi::xml_document xml;
    ASSERT_TRUE(xml.load_string(doc.c_str())) << doc;
    const pugi::xml_node captured = xml.child("captured");
    EXPECT_STREQ(captured.attribute("version").value(), "1");
    EXPECT_STREQ(captured.attribute("type").value(), "Gator");
    EXPECT_STREQ(captured.attribute("protocol").value(), "680");
    EXPECT_STREQ(captured.attribute("created").value(), "1700000000");
    EXPECT_STREQ(captured.attribute("local_capture").value(), "yes");
    const pugi::xml_node target = captured.child("target");
    EXPECT_STREQ(target.attribute("cpuid").value(), "0x41d03");
    EXPECT_STREQ(target.attribute("supports_live").value(), "no");
    const pugi::xml_node first = captured.child("counters").child("counter");
    EXPECT_STREQ(first.attribute("key").value(), "0x3");
    EXPECT_STREQ(first.attribute("event").value(), "0xff");  // the catalog's fixed event
    EXPECT_STREQ(first.attribute("cores").value(), "4");
    EXPECT_FALSE(first.attribute("count"));
}

TEST(CapturedXml, StreamedCaptureOmitsCreatedAndLocal) {
    model::CaptureInfo info;
    const std::string doc = write_captured(info, model::CaptureCounters{});
    EXPECT_EQ(doc.find("created"), std::string::npos);
    EXPECT_EQ(doc.find("local_capture"), std::string::npos);
    EXPECT_NE(doc.find("<counters/>"), std::string::npos) << doc;  // present even when empty
}

TEST(CapturedXml, RoundTrip) {
    const model::CounterCatalog catalog = testing::make_test_catalog();
    const model::CaptureInfo info = sample_info();
    const model::CaptureCounters counters = sample_counters(catalog);
    auto back = parse_captured(write_captured(info, counters));
    ASSERT_TRUE(back.ok()) << back.error().to_string();

    EXPECT_EQ(back->type, "Gator");
    EXPECT_EQ(back->info.protocol, 680);
    EXPECT_EQ(back->info.created, info.created);
    EXPECT_TRUE(back->info.local_capture);
    EXPECT_EQ(back->info.target.name, "board-1");
    EXPECT_EQ(back->info.target.cores, 4);
    EXPECT_EQ(back->info.target.cpuid, 0x41d03U);
    EXPECT_EQ(back->info.target.sample_rate_hz, 1009);
    EXPECT_FALSE(back->info.target.supports_live);

    ASSERT_EQ(back->counters.size(), counters.enabled().size());
    ASSERT_EQ(back->counters.size(), 3U);  // the unknown counter is not keyed
    for (std::size_t i = 0; i < back->counters.size(); ++i) {
        const model::KeyedCounter& k = counters.enabled()[i];
        EXPECT_EQ(back->counters[i].key, k.key);
        EXPECT_EQ(back->counters[i].type, k.counter);
        EXPECT_EQ(back->counters[i].event, k.event);
        EXPECT_EQ(back->counters[i].count, k.count);
        EXPECT_EQ(back->counters[i].cores, k.cores);
    }
}

TEST(CapturedXml, SpecExampleReads) {
    auto c = parse_captured(testing::kSpecCaptured);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(c->info.protocol, 25);
    EXPECT_EQ(c->info.created, 1361467764);
    EXPECT_FALSE(c->info.local_capture);
    EXPECT_EQ(c->type, "");
    EXPECT_EQ(c->info.target.cpuid, 0xc0fU);
    EXPECT_EQ(c->info.target.cores, 5);
    EXPECT_EQ(c->info.target.sample_rate_hz, 100);
    ASSERT_EQ(c->counters.size(), 11U);
    EXPECT_EQ(c->counters[0].key, 3);
    EXPECT_EQ(c->counters[0].type, "ARMv7_Cortex_A7_cnt1");
    EXPECT_EQ(c->counters[0].event, 0x10U);
    EXPECT_EQ(c->counters[4].key, 0x15);
}

TEST(CapturedXml, CounterWithoutKeyIsAnError) {
    auto c = parse_captured(R"(<captured><counters><counter type="x"/></counters></captured>)");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().input, "captured XML");
    EXPECT_EQ(c.error().record, "counter");
    EXPECT_EQ(c.error().field, "key");
}

TEST(CapturedXml, BadTargetValueNamesTheAttribute) {
    auto c = parse_captured(R"(<captured><target cpuid="zz"/></captured>)");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().record, "target");
    EXPECT_EQ(c.error().field, "cpuid");
}

}  // namespace
}  // namespace apcgate::xml
