// Which hardware PMUs libpfm4 detects on this machine (none in most VMs). The perf collector
// builds its counter_sets from these; the daemon logs them at start-up.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace apcgate::collectors::pmu {

struct DetectedPmu {
    std::string name;  // libpfm4's PMU name, e.g. "arm_cortex_a53" or "amd64_fam19h_zen3"
    std::string description;
    int generic_counters = 0;
    int fixed_counters = 0;
};

// Whether the kernel lists an event source under SYS_ROOT/bus/event_source/devices that libpfm4
// could describe: anything but the kernel's own software sources (software, tracepoint,
// breakpoint, kprobe, uprobe) and the x86 MSR counters (msr, which libpfm4 has no model of).
// A hardware event opens only on a PMU the kernel registered, so without one there is nothing
// for libpfm4 to find that could be counted. True when the directory cannot be read: then only
// libpfm4 can tell.
bool kernel_lists_hardware_pmu(const std::filesystem::path& sys_root);

// Initialises libpfm4 once and lists the PMUs it reports present (excluding the always-present
// "perf" software pseudo-PMUs). Empty when there is no hardware PMU or libpfm4 fails. When the
// kernel lists no hardware PMU (kernel_lists_hardware_pmu), libpfm4 is not loaded at all: its
// loading and initialisation cost 7-8 ms of every capture's start here (docs/performance.md).
std::vector<DetectedPmu> detect_pmus(const std::filesystem::path& sys_root = "/sys");

}  // namespace apcgate::collectors::pmu
