// What a core is, from its MIDR: the name Streamline shows (CPU Core Name, captured.xml) and the
// counter-set prefix gatord gives its PMU (PREFIX_cnt0..N-1, PREFIX_ccnt), so that a Barman
// capture's counters line up with a Linux capture of the same CPU. Also the Arm PMU common
// event numbers' names (Arm ARM, "PMU events and event numbers"), for the events XML.
#pragma once

#include <cstdint>
#include <string>

namespace apcgate::collectors::barman {

struct CpuType {
    std::uint32_t cpuid = 0;           // (implementer << 12) | part, e.g. 0x41d03
    std::string core_name;             // e.g. "Cortex-A53"
    std::string prefix;                // e.g. "ARMv8_Cortex_A53"
    std::uint32_t cycle_event = 0x11;  // the event number gatord gives PREFIX_ccnt
};

CpuType cpu_type_of(std::uint32_t midr);

// The PMU cycle counter's type in per_core_pmu_settings.counter_types (A and R profiles).
inline constexpr std::uint32_t kCycleCounterType = 0xffffffffu;

// "INST_RETIRED" for 0x08; empty when the number is not a common architectural event.
std::string pmu_event_mnemonic(std::uint32_t event);
// A readable name: "Instructions retired" for 0x08, "Event 0x4005" when unknown.
std::string pmu_event_name(std::uint32_t event);

}  // namespace apcgate::collectors::barman
