// Events XML: written from a catalog (layout, omitted defaults, per-category inheritance), read
// back (round trip), and the seed's own example read.
#include <gtest/gtest.h>

#include <algorithm>
#include <pugixml.hpp>
#include <string>

#include "tests/xml/spec_examples.hpp"
#include "tests/xml/test_catalog.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

const EventInfo* find_event(const std::vector<EventInfo>& events, std::string_view counter,
                            std::optional<std::uint32_t> event = std::nullopt) {
    auto it = std::find_if(events.begin(), events.end(), [&](const EventInfo& e) {
        return e.counter == counter && (!event || e.event == event);
    });
    return it == events.end() ? nullptr : &*it;
}

TEST(EventsXml, LayoutFollowsTheSeedsExample) {
    const std::string doc = write_events(testing::make_test_catalog());
    pugi::xml_document xml;
    ASSERT_TRUE(xml.load_string(doc.c_str())) << doc;
    const pugi::xml_node events = xml.child("events");
    ASSERT_TRUE(events);

    const pugi::xml_node set = events.child("counter_set");
    EXPECT_STREQ(set.attribute("name").value(), "ARMv8_Cortex_A53_cnt");
    EXPECT_STREQ(set.attribute("count").value(), "6");
    EXPECT_STREQ(set.attribute("title").value(), "Cortex-A53");

    const pugi::xml_node a53 = events.find_child_by_attribute("category", "name", "Cortex-A53");
    ASSERT_TRUE(a53);
    EXPECT_STREQ(a53.attribute("counter_set").value(), "ARMv8_Cortex_A53_cnt");
    EXPECT_STREQ(a53.attribute("per_cpu").value(), "yes");
    EXPECT_STREQ(a53.attribute("supports_event_based_sampling").value(), "yes");
    // The fixed cycle counter comes first, then the set's events.
    const pugi::xml_node ccnt = a53.child("event");
    EXPECT_STREQ(ccnt.attribute("counter").value(), "ARMv8_Cortex_A53_ccnt");
    EXPECT_STREQ(ccnt.attribute("event").value(), "0xff");
    EXPECT_STREQ(ccnt.attribute("display").value(), "hertz");
    EXPECT_STREQ(ccnt.attribute("average_selection").value(), "yes");
    EXPECT_FALSE(ccnt.attribute("per_cpu"));  // same as its category: inherited, not repeated
    EXPECT_FALSE(ccnt.attribute("class"));    // delta is the default
    EXPECT_FALSE(ccnt.attribute("multiplier"));
    const pugi::xml_node instr = ccnt.next_sibling("event");
    EXPECT_STREQ(instr.attribute("event").value(), "0x8");
    EXPECT_FALSE(instr.attribute("counter"));
    EXPECT_FALSE(instr.attribute("units"));  // empty: omitted

    const pugi::xml_node linux_cat = events.find_child_by_attribute("category", "name", "Linux");
    ASSERT_TRUE(linux_cat);
    EXPECT_FALSE(linux_cat.attribute("counter_set"));
    const pugi::xml_node mem =
        linux_cat.find_child_by_attribute("event", "counter", "Linux_meminfo_memused2");
    EXPECT_STREQ(mem.attribute("class").value(), "absolute");
    EXPECT_STREQ(mem.attribute("multiplier").value(), "0.001");
    EXPECT_STREQ(mem.attribute("color").value(), "0x00ff8000");
    EXPECT_FALSE(mem.attribute("per_cpu"));
    const pugi::xml_node act =
        linux_cat.find_child_by_attribute("event", "counter", "Linux_cpu_activity");
    EXPECT_STREQ(act.attribute("class").value(), "activity");
    EXPECT_STREQ(act.attribute("per_cpu").value(), "yes");  // differs from its category
    EXPECT_STREQ(act.attribute("activity1").value(), "System");
    EXPECT_STREQ(act.attribute("activity2").value(), "User");
    EXPECT_STREQ(act.attribute("activity_color1").value(), "0x00ff0000");
    EXPECT_STREQ(act.attribute("cores").value(), "4");
    EXPECT_STREQ(act.attribute("rendering_type").value(), "bar");
}

TEST(EventsXml, RoundTrip) {
    auto events = parse_events(write_events(testing::make_test_catalog()));
    ASSERT_TRUE(events.ok()) << events.error().to_string();
    ASSERT_EQ(events->size(), 5U);  // ccnt, 2 set events, memused, activity

    const EventInfo* ccnt = find_event(*events, "ARMv8_Cortex_A53_ccnt");
    ASSERT_NE(ccnt, nullptr);
    EXPECT_EQ(ccnt->category, "Cortex-A53");
    EXPECT_EQ(ccnt->title, "Clock");
    EXPECT_EQ(ccnt->name, "Cycles");
    EXPECT_EQ(ccnt->cls, "delta");
    EXPECT_EQ(ccnt->units, "Hz");
    EXPECT_EQ(ccnt->event, 0xffU);

    const EventInfo* cycles = find_event(*events, "ARMv8_Cortex_A53_cnt", 0x11);
    ASSERT_NE(cycles, nullptr);
    EXPECT_EQ(cycles->name, "Cycles");
    EXPECT_EQ(cycles->units, "cycles");

    const EventInfo* mem = find_event(*events, "Linux_meminfo_memused2");
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->category, "Linux");
    EXPECT_EQ(mem->cls, "absolute");
    EXPECT_EQ(mem->units, "B");
    EXPECT_FALSE(mem->event);
}

TEST(EventsXml, SetsSharingACategoryBecomeChildren) {
    model::CounterCatalog catalog;
    for (const char* name : {"Mali_FP0_cnt", "Mali_FP1_cnt"}) {
        model::CounterSetSpec set;
        set.name = name;
        set.count = 2;
        set.category = "Mali GPU Fragment Processor";
        set.events.push_back({0x0, "Mali FP", "Active clock cycles", "", "", {}, {}});
        catalog.add_set(set);
    }
    const std::string doc = write_events(catalog);
    pugi::xml_document xml;
    ASSERT_TRUE(xml.load_string(doc.c_str()));
    const pugi::xml_node events = xml.child("events");
    EXPECT_FALSE(events.child("counter_set"));  // not at top level: inside their category
    const pugi::xml_node cat = events.child("category");
    EXPECT_FALSE(cat.attribute("counter_set"));
    EXPECT_EQ(std::distance(cat.children("counter_set").begin(), cat.children("counter_set").end()),
              2);
    EXPECT_EQ(std::distance(cat.children("event").begin(), cat.children("event").end()), 1);

    auto back = parse_events(doc);
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->size(), 2U);  // the one event, once per set
    EXPECT_EQ((*back)[0].counter, "Mali_FP0_cnt");
    EXPECT_EQ((*back)[1].counter, "Mali_FP1_cnt");
}

TEST(EventsXml, CounterWithoutCategoryGoesToOther) {
    model::CounterCatalog catalog;
    model::CounterSpec c;
    c.counter = "x";
    catalog.add(c);
    auto back = parse_events(write_events(catalog));
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->size(), 1U);
    EXPECT_EQ((*back)[0].category, "Other");
}

TEST(EventsXml, EmptyCatalogIsAnEmptyEventsDocument) {
    const std::string doc = write_events(model::CounterCatalog{});
    EXPECT_TRUE(testing::pugixml_accepts(doc));
    auto back = parse_events(doc);
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(back->empty());
}

TEST(EventsXml, SpecExampleReads) {
    auto events = parse_events(testing::kSpecEvents);
    ASSERT_TRUE(events.ok()) << events.error().to_string();
    const EventInfo* ccnt = find_event(*events, "ARMv7_Cortex_A8_ccnt");
    ASSERT_NE(ccnt, nullptr);
    EXPECT_EQ(ccnt->category, "Cortex-A8");
    EXPECT_EQ(ccnt->units, "Hz");
    const EventInfo* refill = find_event(*events, "ARMv7_Cortex_A8_cnt", 0x1);
    ASSERT_NE(refill, nullptr);
    EXPECT_EQ(refill->name, "Instruction refill");
    // Mali's sets are <counter_set> children of their category.
    EXPECT_NE(find_event(*events, "ARM_Mali-400_FP2_cnt", 0x3), nullptr);
    const EventInfo* hwmon = find_event(*events, "hwmon_ab8500-isa-0000_2");
    ASSERT_NE(hwmon, nullptr);
    EXPECT_EQ(hwmon->name, "bat_temp");
    EXPECT_EQ(hwmon->units, "C");
}

TEST(EventsXml, MalformedEventNumberIsAnError) {
    auto events = parse_events(
        R"(<events><category name="c" counter_set="s"><event event="0xq"/></category></events>)");
    ASSERT_FALSE(events.ok());
    EXPECT_EQ(events.error().input, "events XML");
    EXPECT_EQ(events.error().record, "event");
    EXPECT_EQ(events.error().field, "event");
}

}  // namespace
}  // namespace apcgate::xml
