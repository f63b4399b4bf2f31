// One part of a capture's statistics: whose they are and their values, each with its spec.
#pragma once

#include <string>
#include <vector>

#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

// Whose statistics: a source's name ("perf", "procfs", "annotate"), "encoder", "perf_framing",
// or an input's "source PATH".
struct StatisticsOf {
    std::string who;
    std::vector<model::StatisticValue> values;
};

}  // namespace apcgate::daemon
