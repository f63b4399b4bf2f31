// The counters the perf collector can offer, for the one catalog: CPU activity (Activity
// frames from context switches), the kernel's software events per CPU, records the kernel
// reported lost, and each usable hardware PMU as a gatord-style counter_set plus cycle counter.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/pmu/pmu_events.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::perf {

inline constexpr std::string_view kActivityCounter = "Linux_cpu_activity";
inline constexpr std::string_view kLostCounter = "Linux_perf_lost";
// Context switches only the incoming task's switch-in record reported (switch_timeline.hpp).
inline constexpr std::string_view kRepairedSwitchesCounter = "Linux_perf_repaired_switches";

struct SoftwareCounter {
    std::string_view counter;  // gatord's name: the PERF_COUNT_SW_* enumerator
    std::uint64_t config;      // perf_event_attr.config for PERF_TYPE_SOFTWARE
    std::string_view name;
    std::string_view description;
    std::string_view units;
    bool kernel_only;    // counts only in the kernel: reads 0 when kernel counting is excluded
    bool per_task_only;  // counts tasks' time: reads 0 on a CPU-wide (system-wide) event
};

extern const std::array<SoftwareCounter, 4> kSoftwareCounters;

model::CounterSpec activity_spec(int cores);
model::CounterSpec lost_spec();
model::CounterSpec repaired_switches_spec();
model::CounterSpec software_spec(const SoftwareCounter& c);

// One hardware PMU the kernel lets us open: counter_set PREFIX_cnt (slots) + PREFIX_ccnt.
struct HwCluster {
    std::string prefix;          // "ARMv8_Cortex_A53", or "Perf_Hardware"
    std::string pmu;             // libpfm4's name for it
    std::string title;           // "Cortex-A53", or libpfm4's description
    int slots = 0;               // programmable counters
    std::uint32_t raw_type = 4;  // perf_event_attr.type for configured event numbers
    std::vector<pmu::PmuEventInfo> events;
};

model::CounterSetSpec counter_set_spec(const HwCluster& c);
model::CounterSpec cycle_counter_spec(const HwCluster& c);
inline std::string set_name(const HwCluster& c) {
    return c.prefix + "_cnt";
}
inline std::string cycle_counter_name(const HwCluster& c) {
    return c.prefix + "_ccnt";
}

}  // namespace apcgate::collectors::perf
