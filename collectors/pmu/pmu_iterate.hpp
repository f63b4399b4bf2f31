// Walks the PMUs libpfm4 knows (initialising it first), handing each one's info to `visit`
// until it returns false. Shared by PMU detection and event listing.
#pragma once

#include <perfmon/pfmlib.h>

#include <cstring>

namespace apcgate::collectors::pmu {

template <class Visit>
void for_each_pmu_info(Visit&& visit) {
    if (pfm_initialize() != PFM_SUCCESS) return;
    for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; ++p) {
        pfm_pmu_info_t info;
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &info) != PFM_SUCCESS) continue;
        if (!visit(static_cast<const pfm_pmu_info_t&>(info))) return;
    }
}

}  // namespace apcgate::collectors::pmu
