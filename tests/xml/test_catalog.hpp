// A catalog shaped like a real target's: a Cortex-A53 PMU (a counter_set plus its fixed cycle
// counter in the same category), Linux counters, and a CPU activity counter.
#pragma once

#include <pugixml.hpp>
#include <string>

#include "protocol/model/counter_catalog.hpp"

namespace apcgate::xml::testing {

inline model::CounterCatalog make_test_catalog() {
    model::CounterCatalog catalog;

    model::CounterSetSpec pmu;
    pmu.name = "ARMv8_Cortex_A53_cnt";
    pmu.count = 6;
    pmu.category = "Cortex-A53";
    pmu.title = "Cortex-A53";
    pmu.description = "Cortex-A53 PMU";
    pmu.per_cpu = true;
    pmu.supports_event_based_sampling = true;
    pmu.events.push_back({0x8, "Instruction", "Executed", "Instructions architecturally executed",
                          "", model::CounterClass::Delta, model::Display::Default});
    pmu.events.push_back({0x11, "Clock", "Cycles", "Cycles", "cycles", model::CounterClass::Delta,
                          model::Display::Hertz});
    pmu.default_slots = {{"ARMv8_Cortex_A53_cnt0", 0x8}};
    catalog.add_set(pmu);

    model::CounterSpec ccnt;
    ccnt.counter = "ARMv8_Cortex_A53_ccnt";
    ccnt.category = "Cortex-A53";
    ccnt.title = "Clock";
    ccnt.name = "Cycles";
    ccnt.display = model::Display::Hertz;
    ccnt.units = "Hz";
    ccnt.per_cpu = true;
    ccnt.supports_event_based_sampling = true;
    ccnt.event = 0xff;
    ccnt.average_selection = true;
    catalog.add(ccnt);

    model::CounterSpec memused;
    memused.counter = "Linux_meminfo_memused2";
    memused.category = "Linux";
    memused.title = "Memory";
    memused.name = "Used";
    memused.cls = model::CounterClass::Absolute;
    memused.display = model::Display::Maximum;
    memused.units = "B";
    memused.multiplier = 0.001;
    memused.color = 0x00ff8000;
    catalog.add(memused);

    model::CounterSpec activity;
    activity.counter = "Linux_cpu_activity";
    activity.category = "Linux";
    activity.title = "CPU";
    activity.name = "Activity";
    activity.cls = model::CounterClass::Activity;
    activity.per_cpu = true;
    activity.activities = {"System", "User"};
    activity.activity_colors = {0x00ff0000, 0x0000ff00};
    activity.cores = 4;
    activity.rendering_type = "bar";
    activity.series_composition = "stacked";
    catalog.add(activity);
    return catalog;
}

// True if pugixml, in strict default mode, accepts `text` as a document.
inline bool pugixml_accepts(const std::string& text) {
    pugi::xml_document doc;
    return static_cast<bool>(doc.load_string(text.c_str())) && doc.document_element();
}

}  // namespace apcgate::xml::testing
