// Which hardware PMUs libpfm4 detects on this machine (none in most VMs). The perf collector
// builds its counter_sets from these; the daemon logs them at start-up.
#pragma once

#include <string>
#include <vector>

namespace apcgate::collectors::pmu {

struct DetectedPmu {
    std::string name;  // libpfm4's PMU name, e.g. "arm_cortex_a53" or "amd64_fam19h_zen3"
    std::string description;
    int generic_counters = 0;
    int fixed_counters = 0;
};

// Initialises libpfm4 once and lists the PMUs it reports present (excluding the always-present
// "perf" software pseudo-PMUs). Empty when there is no hardware PMU or libpfm4 fails.
std::vector<DetectedPmu> detect_pmus();

}  // namespace apcgate::collectors::pmu
