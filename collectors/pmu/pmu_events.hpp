// The events libpfm4 knows for one hardware PMU, each encoded into what perf_event_attr needs
// (type and config), so events XML can list them and a configured event number can be opened.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::collectors::pmu {

struct PmuEventInfo {
    std::string name;  // libpfm4's event name, e.g. "INST_RETIRED"
    std::string description;
    std::uint32_t perf_type = 0;  // perf_event_attr.type (PERF_TYPE_RAW or a dynamic PMU type)
    std::uint64_t config = 0;     // perf_event_attr.config: the event number Streamline shows
};

// Up to `limit` events of the PMU named `pmu` (detect_pmus() names), each with its default unit
// masks; events libpfm4 cannot encode that way are left out. Empty for an unknown PMU.
std::vector<PmuEventInfo> list_pmu_events(std::string_view pmu, std::size_t limit = 1024);

}  // namespace apcgate::collectors::pmu
