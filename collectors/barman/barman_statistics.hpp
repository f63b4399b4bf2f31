// A Barman input's own statistics, declared once: what reading a data store met that is no
// record kind (the records keep their read/mapped/skipped counts in the IngestReport). Printed
// after the input's totals.
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::barman {

enum class BarmanStat : std::uint8_t {
    EventsMovedUp,
    Count,
};

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(BarmanStat::Count)>
    kBarmanStatistics{{
        {"barman_events_moved_up", model::Severity::DataLoss,
         "events of records stored later than the agent's commit order allows (further out of "
         "timestamp order than the cores writing at once): their timestamp was changed to the "
         "latest one already handed on, so they show later than they happened"},
    }};

using BarmanStatistics = model::Statistics<BarmanStat, kBarmanStatistics>;

}  // namespace apcgate::collectors::barman
