#include "collectors/pmu/pmu_probe.hpp"

#include <perfmon/pfmlib.h>

#include <cstring>

namespace apcgate::collectors::pmu {

std::vector<DetectedPmu> detect_pmus() {
    std::vector<DetectedPmu> out;
    if (pfm_initialize() != PFM_SUCCESS) return out;
    for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; ++p) {
        pfm_pmu_info_t info;
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &info) != PFM_SUCCESS) continue;
        if (!info.is_present || info.type == PFM_PMU_TYPE_OS_GENERIC) continue;
        out.push_back({info.name != nullptr ? info.name : "",
                       info.desc != nullptr ? info.desc : "", info.num_cntrs,
                       info.num_fixed_cntrs});
    }
    return out;
}

}  // namespace apcgate::collectors::pmu
