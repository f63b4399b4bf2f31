#include "collectors/pmu/pmu_probe.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <system_error>

#include "collectors/pmu/pmu_iterate.hpp"

namespace apcgate::collectors::pmu {

bool kernel_lists_hardware_pmu(const std::filesystem::path& sys_root) {
    constexpr std::array<std::string_view, 6> kNotHardware{"software", "tracepoint", "breakpoint",
                                                           "kprobe",   "uprobe",     "msr"};
    std::error_code ec;
    std::filesystem::directory_iterator it(sys_root / "bus/event_source/devices", ec);
    if (ec) return true;
    // An error while listing ends the walk with `ec` set: then only libpfm4 can tell.
    for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (std::find(kNotHardware.begin(), kNotHardware.end(), name) == kNotHardware.end())
            return true;
    }
    return static_cast<bool>(ec);
}

std::vector<DetectedPmu> detect_pmus(const std::filesystem::path& sys_root) {
    std::vector<DetectedPmu> out;
    if (!kernel_lists_hardware_pmu(sys_root)) return out;
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
