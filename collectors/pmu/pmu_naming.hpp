// What gatord calls a CPU's PMU in events XML: counter_sets PREFIX_cnt0..N-1 plus the cycle
// counter PREFIX_ccnt, where Arm cores take PREFIX from their MIDR (0x41d03 -> ARMv8_Cortex_A53)
// and any other CPU falls back to the generic Perf_Hardware cluster.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace apcgate::collectors::pmu {

inline constexpr std::string_view kGenericPrefix = "Perf_Hardware";

// cpuid = (implementer << 12) | part, as Streamline's cpuid attributes use it.
// "Cortex-A53", "Neoverse-N1", ... for Arm parts we know; "" otherwise.
std::string arm_core_name(std::uint32_t cpuid);
// "ARMv8_Cortex_A53" for a known Arm part, else "Perf_Hardware".
std::string counter_set_prefix(std::uint32_t cpuid);
// The libpfm4 PMU name for an Arm core ("arm_cortex_a53"), "" for unknown parts.
std::string libpfm_arm_pmu(std::uint32_t cpuid);

}  // namespace apcgate::collectors::pmu
