#include "collectors/perf/counter_specs.hpp"

#include <linux/perf_event.h>

#include <utility>

namespace apcgate::collectors::perf {

const std::array<SoftwareCounter, 4> kSoftwareCounters{{
    {"PERF_COUNT_SW_CONTEXT_SWITCHES", PERF_COUNT_SW_CONTEXT_SWITCHES, "Context switches",
     "Times a task was switched out on this CPU", "", true, false},
    {"PERF_COUNT_SW_CPU_MIGRATIONS", PERF_COUNT_SW_CPU_MIGRATIONS, "CPU migrations",
     "Times a task moved to this CPU from another", "", true, false},
    {"PERF_COUNT_SW_PAGE_FAULTS", PERF_COUNT_SW_PAGE_FAULTS, "Page faults",
     "Page faults taken on this CPU (minor and major)", "", false, false},
    {"PERF_COUNT_SW_TASK_CLOCK", PERF_COUNT_SW_TASK_CLOCK, "Task clock",
     "Time the followed tasks ran on this CPU (the kernel's task clock)", "ns", false, true},
}};

model::CounterSpec activity_spec(int cores) {
    model::CounterSpec s;
    s.counter = std::string(kActivityCounter);
    s.category = "Scheduler";
    s.title = "CPU Activity";
    s.name = "Running";
    s.description =
        "Which thread runs on each CPU, from the kernel's context switch records and "
        "sched:sched_switch, with why the previous one stopped; the chart shows the share of "
        "time a task ran";
    s.cls = model::CounterClass::Activity;
    s.display = model::Display::Average;
    // Values are hundredths of a percent of each counter period (running_share.hpp).
    s.units = "%";
    s.multiplier = 0.01;
    s.average_selection = true;
    s.average_cores = true;
    s.per_cpu = true;
    s.activities = {"Running"};
    s.activity_colors = {0x0000a0ffu};
    s.cores = cores > 0 ? cores : 1;
    return s;
}

namespace {

// A count per CPU in the Software category, shown as how many in each period.
model::CounterSpec software_delta_spec(std::string_view counter, std::string title,
                                       std::string name, std::string description) {
    model::CounterSpec s;
    s.counter = std::string(counter);
    s.category = "Software";
    s.title = std::move(title);
    s.name = std::move(name);
    s.description = std::move(description);
    s.cls = model::CounterClass::Delta;
    s.display = model::Display::Accumulate;
    s.per_cpu = true;
    return s;
}

}  // namespace

model::CounterSpec lost_spec() {
    return software_delta_spec(
        kLostCounter, "Perf", "Lost records",
        "Records the kernel dropped because a perf ring buffer was full (PERF_RECORD_LOST)");
}

model::CounterSpec repaired_switches_spec() {
    return software_delta_spec(
        kRepairedSwitchesCounter, "Perf", "Repaired switches",
        "Context switches that neither sched:sched_switch nor the previous task's switch-out "
        "record reported, placed at the incoming task's switch-in record "
        "(PERF_RECORD_SWITCH_CPU_WIDE)");
}

model::CounterSpec software_spec(const SoftwareCounter& c) {
    model::CounterSpec s =
        software_delta_spec(c.counter, "Software", std::string(c.name), std::string(c.description));
    s.units = std::string(c.units);
    return s;
}

model::CounterSetSpec counter_set_spec(const HwCluster& c) {
    model::CounterSetSpec s;
    s.name = set_name(c);
    s.count = c.slots;
    s.category = c.title;
    s.title = c.title;
    s.description = "Programmable counters of the " + c.pmu + " PMU";
    s.per_cpu = true;
    s.supports_event_based_sampling = true;
    for (const auto& e : c.events) {
        if (e.config > 0xffffffffu) continue;  // event numbers are 32-bit in the XML
        model::CounterSetSpec::Event ev;
        ev.event = static_cast<std::uint32_t>(e.config);
        ev.title = c.title;
        ev.name = e.name;
        ev.description = e.description;
        s.events.push_back(std::move(ev));
    }
    return s;
}

model::CounterSpec cycle_counter_spec(const HwCluster& c) {
    model::CounterSpec s;
    s.counter = cycle_counter_name(c);
    s.category = c.title;
    s.title = "Clock";
    s.name = "Cycles";
    s.description = "Core clock cycles";
    s.cls = model::CounterClass::Delta;
    s.display = model::Display::Hertz;
    s.units = "Hz";
    s.per_cpu = true;
    s.event = 0xff;  // gatord's event number for the fixed cycle counter
    s.average_selection = true;
    s.average_cores = true;
    s.supports_event_based_sampling = true;
    return s;
}

}  // namespace apcgate::collectors::perf
