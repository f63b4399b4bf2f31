// Walks the PMUs libpfm4 knows (loading and initialising it first, unloading it after), handing
// the library and each PMU's info to `visit` until it returns false. Shared by PMU detection and
// event listing.
#pragma once

#include <cstring>

#include "collectors/pmu/libpfm.hpp"

namespace apcgate::collectors::pmu {

template <class Visit>
void for_each_pmu_info(Visit&& visit) {
    const std::unique_ptr<Libpfm> lib = Libpfm::load();
    if (!lib) return;
    for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; ++p) {
        pfm_pmu_info_t info;
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (lib->get_pmu_info(static_cast<pfm_pmu_t>(p), &info) != PFM_SUCCESS) continue;
        if (!visit(*lib, static_cast<const pfm_pmu_info_t&>(info))) return;
    }
}

}  // namespace apcgate::collectors::pmu
