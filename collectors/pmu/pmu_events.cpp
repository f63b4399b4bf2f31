#include "collectors/pmu/pmu_events.hpp"

#include <perfmon/pfmlib_perf_event.h>

#include <cstring>

#include "collectors/pmu/pmu_iterate.hpp"

namespace apcgate::collectors::pmu {

std::vector<PmuEventInfo> list_pmu_events(std::string_view pmu, std::size_t limit) {
    std::vector<PmuEventInfo> out;
    for_each_pmu_info([&](const Libpfm& lib, const pfm_pmu_info_t& info) {
        if (info.name == nullptr || pmu != info.name) return true;  // not this one: go on
        for (int e = info.first_event; e != -1 && out.size() < limit; e = lib.get_event_next(e)) {
            pfm_event_info_t ev;
            std::memset(&ev, 0, sizeof ev);
            ev.size = sizeof ev;
            if (lib.get_event_info(e, PFM_OS_PERF_EVENT, &ev) != PFM_SUCCESS || ev.name == nullptr)
                continue;
            const std::string spec = std::string(info.name) + "::" + ev.name;
            perf_event_attr attr;
            std::memset(&attr, 0, sizeof attr);
            pfm_perf_encode_arg_t arg;
            std::memset(&arg, 0, sizeof arg);
            arg.attr = &attr;
            arg.size = sizeof arg;
            if (lib.get_os_event_encoding(spec.c_str(), PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT,
                                          &arg) != PFM_SUCCESS)
                continue;
            out.push_back({ev.name, ev.desc != nullptr ? ev.desc : "", attr.type, attr.config});
        }
        return false;  // found: stop
    });
    return out;
}

}  // namespace apcgate::collectors::pmu
