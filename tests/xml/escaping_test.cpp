// Names and titles with markup characters, quotes and non-ASCII text survive every document we
// write; bytes XML cannot carry are dropped, and the output stays well-formed for pugixml.
#include <gtest/gtest.h>

#include <string>

#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

constexpr std::string_view kNasty =
    "<&\"'> Temp \xC2\xB0"
    "C \xE6\xB8\xA9\xE5\xBA\xA6 \xF0\x9F\x94\xA5";

TEST(Escaping, EventsTitleRoundTrips) {
    model::CounterCatalog catalog;
    model::CounterSpec c;
    c.counter = std::string("hwmon_") + std::string(kNasty);
    c.category = std::string(kNasty);
    c.title = std::string(kNasty);
    c.name = "a\tb\nc";  // whitespace that attribute normalisation would flatten
    c.units = "\xC2\xB5s";
    c.description = std::string(kNasty);
    catalog.add(c);

    const std::string doc = write_events(catalog);
    EXPECT_TRUE(testing::pugixml_accepts(doc)) << doc;
    EXPECT_NE(doc.find("&lt;&amp;&quot;&apos;&gt;"), std::string::npos) << doc;
    auto back = parse_events(doc);
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    ASSERT_EQ(back->size(), 1U);
    EXPECT_EQ((*back)[0].counter, c.counter);
    EXPECT_EQ((*back)[0].category, c.category);
    EXPECT_EQ((*back)[0].title, c.title);
    EXPECT_EQ((*back)[0].name, c.name);
    EXPECT_EQ((*back)[0].units, c.units);
}

TEST(Escaping, CapturedTargetNameRoundTrips) {
    model::CaptureInfo info;
    info.target.name = std::string(kNasty);
    auto back = parse_captured(write_captured(info, model::CaptureCounters{}));
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->info.target.name, kNasty);
}

TEST(Escaping, CountersNamesRoundTrip) {
    model::CounterCatalog catalog;
    model::CounterSpec c;
    c.counter = std::string(kNasty);
    catalog.add(c);
    const std::string doc = write_counters(catalog);
    EXPECT_TRUE(testing::pugixml_accepts(doc));
    auto back = parse_counters(doc);
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->size(), 1U);
    EXPECT_EQ(back->front(), kNasty);
}

TEST(Escaping, InvalidUtf8AndControlCharactersAreStripped) {
    using namespace std::string_literals;
    model::CaptureInfo info;
    info.target.name =
        "bo\x01"
        "ard\xFF\xFE-\0\x1b[31m"
        "1\xC3"s;
    const std::string doc = write_captured(info, model::CaptureCounters{});
    EXPECT_TRUE(testing::pugixml_accepts(doc)) << doc;
    auto back = parse_captured(doc);
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->info.target.name, "board-[31m1");
}

TEST(Escaping, ConfigurationCounterWithMarkupRoundTrips) {
    model::Configuration config;
    config.counters.push_back({std::string(kNasty), 0x1, std::nullopt, std::nullopt});
    auto back = parse_configuration(write_configuration(config));
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->counters.size(), 1U);
    EXPECT_EQ(back->counters[0].counter, kNasty);
}

TEST(Escaping, WholeTestCatalogOutputIsWellFormed) {
    const model::CounterCatalog catalog = testing::make_test_catalog();
    EXPECT_TRUE(testing::pugixml_accepts(write_events(catalog)));
    EXPECT_TRUE(testing::pugixml_accepts(write_counters(catalog)));
    EXPECT_TRUE(testing::pugixml_accepts(write_configuration(catalog.defaults())));
    EXPECT_TRUE(testing::pugixml_accepts(write_session(model::CaptureSettings{})));
}

}  // namespace
}  // namespace apcgate::xml
