// The counters a Barman header describes, as catalog entries, and the names the mapper looks
// their capture keys up by.
//
// Naming (Streamline shows title + name; the counter name is the key in captured.xml):
// - PMU: one counter per (core type, event) present in the header, delta class, per CPU, in a
//   category named after the core ("Cortex-A53"). The core type's prefix is gatord's
//   counter-set prefix, so the cycle counter is PREFIX_ccnt exactly as gatord names it, and
//   event N is PREFIX_event_0xNN (the Arm PMU event number, as the TRMs write it). The counter
//   set PREFIX_cnt is declared too, listing the events by their Arm names, so the category reads
//   like a Linux capture's. A Barman core's slot can hold a different event on each core, hence
//   one counter per event rather than per slot.
// - Custom charts: one counter per series, Barman_<chart>_<series>, in a category named after
//   the chart, with the chart's composition, rendering and flags and the series' class,
//   display, units, multiplier and colour; values go in Counter frames.
// - Task switches: Barman_task_activity, an activity counter (activity1 "Running").
#pragma once

#include <string>
#include <vector>

#include "collectors/barman/header.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::barman {

struct CounterPlan {
    std::vector<model::CounterSpec> counters;
    std::vector<model::CounterSetSpec> sets;
    std::vector<std::vector<std::string>> pmu_names;  // [core][slot]: counter name
    std::vector<std::string> series_names;            // [series]: counter name
    std::string activity;                             // "" when the agent keeps no tasks
    int cores = 1;                                    // highest configured core + 1
};

CounterPlan plan_counters(const Header& header);
void declare(const CounterPlan& plan, model::CounterCatalog& catalog);

}  // namespace apcgate::collectors::barman
