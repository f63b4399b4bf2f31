// What the target is: core count, CPU identification (/proc/cpuinfo) and host name, for
// captured.xml and the Summary frame's core names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/model/event.hpp"
#include "protocol/model/target_info.hpp"

namespace apcgate::collectors::procfs {

// One "processor : N" block of /proc/cpuinfo.
struct CpuInfoEntry {
    int processor = -1;
    std::optional<std::uint32_t> implementer;  // Arm: "CPU implementer : 0x41"
    std::optional<std::uint32_t> part;         // Arm: "CPU part : 0xd03"
    std::string model_name;                    // x86 (and 32-bit Arm): "model name : ..."
};

// Lines that do not parse are ignored; blocks without a processor number are dropped.
std::vector<CpuInfoEntry> parse_cpuinfo(std::string_view text);

// The cpuid Streamline expects: (implementer << 12) | part, e.g. 0x41d03 for a Cortex-A53;
// 0 when the block has no MIDR fields (x86).
std::uint32_t cpuid_of(const CpuInfoEntry& e);
// Arm's name for a part of implementer 0x41 (e.g. 0xd03 -> "Cortex-A53"); "" when unknown.
std::string_view arm_part_name(std::uint32_t part);
// The name of a core: the Arm part name, "Arm 0x<cpuid>" for an unknown MIDR, else the model
// name, else "CPU".
std::string core_name(const CpuInfoEntry& e);

// "0-3,6,8-9" (the sysfs CPU list format) -> highest CPU number + 1; nullopt when malformed.
std::optional<int> cpu_list_count(std::string_view list);

// One CoreName (ts 0) per processor listed in <proc_root>/cpuinfo (online CPUs only).
std::vector<model::CoreName> read_core_names(const std::filesystem::path& proc_root = "/proc");

// Cores: highest CPU number + 1 from <sys_root>/devices/system/cpu/present (offline CPUs
// included), else from the cpuN lines of <proc_root>/stat, else 1. cpuid: that of processor 0.
// name: <proc_root>/sys/kernel/hostname ("" when unreadable). Other fields keep their defaults.
model::TargetInfo probe_target(const std::filesystem::path& proc_root = "/proc",
                               const std::filesystem::path& sys_root = "/sys");

}  // namespace apcgate::collectors::procfs
