// One part of a capture's statistics: whose they are and their values, each with its spec.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "collectors/source.hpp"
#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

// Whose statistics: a source's name ("perf", "procfs", "annotate"), "encoder", "perf_framing",
// or an input's "source PATH".
struct StatisticsOf {
    std::string who;
    std::vector<model::StatisticValue> values;
};

// The statistics of the sources that keep any, each under the source's name, in their order.
inline std::vector<StatisticsOf> sources_statistics(
    std::span<const collectors::Source* const> sources) {
    std::vector<StatisticsOf> out;
    for (const collectors::Source* source : sources) {
        auto values = source->statistics();
        if (!values.empty()) out.push_back({std::string(source->name()), std::move(values)});
    }
    return out;
}

}  // namespace apcgate::daemon
