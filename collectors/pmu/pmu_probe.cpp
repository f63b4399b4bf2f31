#include "collectors/pmu/pmu_probe.hpp"

#include "collectors/pmu/pmu_iterate.hpp"

namespace apcgate::collectors::pmu {

std::vector<DetectedPmu> detect_pmus() {
    std::vector<DetectedPmu> out;
    for_each_pmu_info([&out](const Libpfm& /*lib*/, const pfm_pmu_info_t& info) {
        if (info.is_present && info.type != PFM_PMU_TYPE_OS_GENERIC)
            out.push_back({info.name != nullptr ? info.name : "",
                           info.desc != nullptr ? info.desc : "", info.num_cntrs,
                           info.num_fixed_cntrs});
        return true;
    });
    return out;
}

}  // namespace apcgate::collectors::pmu
