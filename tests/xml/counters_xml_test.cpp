// Counters XML: every available name of the catalog, and the seed's example read back.
#include <gtest/gtest.h>

#include <string>

#include "tests/xml/spec_examples.hpp"
#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

TEST(CountersXml, ListsEverySlotAndCounter) {
    const model::CounterCatalog catalog = testing::make_test_catalog();
    const std::string doc = write_counters(catalog);
    EXPECT_TRUE(testing::pugixml_accepts(doc));
    EXPECT_NE(doc.find("<counter name=\"ARMv8_Cortex_A53_cnt5\"/>"), std::string::npos) << doc;

    auto names = parse_counters(doc);
    ASSERT_TRUE(names.ok()) << names.error().to_string();
    EXPECT_EQ(*names, catalog.available_names());
    EXPECT_EQ(names->size(), 6U + 3U);
}

TEST(CountersXml, EmptyCatalog) {
    auto names = parse_counters(write_counters(model::CounterCatalog{}));
    ASSERT_TRUE(names.ok());
    EXPECT_TRUE(names->empty());
}

TEST(CountersXml, SpecExampleReads) {
    auto names = parse_counters(testing::kSpecCounters);
    ASSERT_TRUE(names.ok()) << names.error().to_string();
    ASSERT_EQ(names->size(), 20U);
    EXPECT_EQ(names->front(), "Linux_power_cpu_idle");
    EXPECT_EQ(names->back(), "Linux_block_rq_wr");
}

TEST(CountersXml, WrongRootIsAnError) {
    auto names = parse_counters("<events/>");
    ASSERT_FALSE(names.ok());
    EXPECT_EQ(names.error().input, "counters XML");
}

}  // namespace
}  // namespace apcgate::xml
