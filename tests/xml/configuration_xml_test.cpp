// Configuration XML: the seed's revision 2 example, gatord's revision 3, skipped entries,
// refused revisions, malformed values, and the write -> parse round trip.
#include <gtest/gtest.h>

#include <string>

#include "tests/xml/spec_examples.hpp"
#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

TEST(ConfigurationXml, SpecExampleRevision2) {
    auto c = parse_configuration(testing::kSpecConfiguration);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(c->revision, 2);
    ASSERT_EQ(c->counters.size(), 21U);
    EXPECT_EQ(c->counters[0].counter, "ARMv7_Cortex_A8_ccnt");
    EXPECT_EQ(c->counters[0].event, 0xffU);  // written "0xFF"
    EXPECT_EQ(c->counters[2].event, 0x44U);
    EXPECT_EQ(c->counters[11].counter, "Linux_block_rq_wr");
    EXPECT_FALSE(c->counters[11].event);
    EXPECT_EQ(c->counters[16].event, 0xb4U);
    EXPECT_EQ(c->counters[20].counter, "hwmon_arm,vexpress-amp-isa-0010_0");
}

// What gatord writes and expects: revision 3, cores on some entries, counts for EBS, and elements
// the seed does not define (ignored).
TEST(ConfigurationXml, GatordRevision3) {
    const char* doc = R"(<?xml version="1.0" encoding="UTF-8"?>
<configurations revision="3">
  <configuration counter="ARMv8_Cortex_A53_ccnt" cores="4"/>
  <configuration counter="ARMv8_Cortex_A53_cnt0" event="0x8" count="100000"/>
  <configuration counter="ARMv8_Cortex_A53_cnt1" event="11"/>
  <spe id="armspe" event_filter_mask="0x2"/>
  <configuration counter="Linux_cpu_wait_contention"/>
</configurations>
)";
    auto c = parse_configuration(doc);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(c->revision, 3);
    ASSERT_EQ(c->counters.size(), 4U);
    EXPECT_EQ(c->counters[0].cores, 4);
    EXPECT_EQ(c->counters[1].event, 0x8U);
    EXPECT_EQ(c->counters[1].count, 100000);
    EXPECT_EQ(c->counters[2].event, 0x11U);  // hex without the 0x prefix
    EXPECT_EQ(c->counters[3].counter, "Linux_cpu_wait_contention");
}

TEST(ConfigurationXml, MissingRevisionReadsAs3) {
    auto c = parse_configuration("<configurations><configuration counter=a/></configurations>");
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(c->revision, 3);
    ASSERT_EQ(c->counters.size(), 1U);
    EXPECT_EQ(c->counters[0].counter, "a");
}

TEST(ConfigurationXml, EntriesWithoutCounterAreSkipped) {
    auto c = parse_configuration(R"(<configurations revision="3">
  <configuration event="0x8"/>
  <configuration counter=""/>
  <configuration counter="kept"/>
</configurations>)");
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    ASSERT_EQ(c->counters.size(), 1U);
    EXPECT_EQ(c->counters[0].counter, "kept");
}

TEST(ConfigurationXml, OtherRevisionsAreRefused) {
    for (const char* rev : {"7", "1", "-3", "two"}) {
        auto c = parse_configuration(std::string("<configurations revision=\"") + rev + "\"/>");
        ASSERT_FALSE(c.ok()) << rev;
        EXPECT_EQ(c.error().record, "configurations");
        EXPECT_EQ(c.error().field, "revision");
    }
    auto c = parse_configuration("<configurations revision=\"7\"/>");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find('7'), std::string::npos);
}

TEST(ConfigurationXml, MalformedEventNamesEntryAndAttribute) {
    auto c = parse_configuration(R"(<configurations revision="3">
  <configuration counter="X_cnt0" event="0xzz"/>
</configurations>)");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().input, "configuration XML");
    EXPECT_EQ(c.error().record, "configuration");
    EXPECT_EQ(c.error().field, "event");
    EXPECT_NE(c.error().to_string().find("X_cnt0"), std::string::npos) << c.error().to_string();
}

TEST(ConfigurationXml, EventBeyond32BitsIsRefused) {
    auto c = parse_configuration(
        R"(<configurations><configuration counter="a" event="0x100000000"/></configurations>)");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().field, "event");
}

TEST(ConfigurationXml, RoundTrip) {
    model::Configuration in;
    in.revision = 2;  // written as 3 whatever was read
    in.counters.push_back({"ARMv8_Cortex_A53_cnt0", 0x8, 5000, std::nullopt});
    in.counters.push_back({"ARMv8_Cortex_A53_ccnt", 0xff, std::nullopt, 2});
    in.counters.push_back({"Linux_meminfo_memused2", std::nullopt, std::nullopt, std::nullopt});
    in.counters.push_back({"odd <&\"'> name \xC3\xA9", 0xffffffff, std::nullopt, std::nullopt});
    const std::string doc = write_configuration(in);
    EXPECT_TRUE(testing::pugixml_accepts(doc));
    EXPECT_NE(doc.find("revision=\"3\""), std::string::npos);

    auto out = parse_configuration(doc);
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    EXPECT_EQ(out->revision, 3);
    ASSERT_EQ(out->counters.size(), in.counters.size());
    for (std::size_t i = 0; i < in.counters.size(); ++i) {
        EXPECT_EQ(out->counters[i].counter, in.counters[i].counter);
        EXPECT_EQ(out->counters[i].event, in.counters[i].event);
        EXPECT_EQ(out->counters[i].count, in.counters[i].count);
        EXPECT_EQ(out->counters[i].cores, in.counters[i].cores);
    }
}

TEST(ConfigurationXml, CatalogDefaultsRoundTrip) {
    const model::Configuration defaults = testing::make_test_catalog().defaults();
    auto out = parse_configuration(write_configuration(defaults));
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->counters.size(), defaults.counters.size());
    EXPECT_EQ(out->counters[0].counter, "ARMv8_Cortex_A53_cnt0");
    EXPECT_EQ(out->counters[0].event, 0x8U);
}

}  // namespace
}  // namespace apcgate::xml
