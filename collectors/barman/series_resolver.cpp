#include "collectors/barman/series_resolver.hpp"

#include <algorithm>
#include <map>

namespace apcgate::collectors::barman {

SeriesResolver::SeriesResolver(const Header& header)
    : series_(static_cast<std::uint32_t>(header.series.size())) {
    std::map<std::uint32_t, std::uint32_t> next_index;  // chart -> series seen so far
    for (std::uint32_t s = 0; s < series_; ++s) {
        const CustomSeries& series = header.series[s];
        const std::uint32_t chart = series.chart_index;
        const std::uint32_t index = next_index[chart]++;
        per_cpu_.push_back(chart < header.charts.size() &&
                           (header.charts[chart].flags & 0x08) != 0);
        if ((series.flags & 0x01) != 0) continue;  // sampled: its values come in samples
        if (recorded_by_index_.size() <= index) recorded_by_index_.resize(index + 1);
        recorded_by_index_[index].push_back(s);
    }
}

SeriesResolver::Resolved SeriesResolver::resolve(std::uint32_t counter, std::uint32_t core) const {
    std::vector<std::uint32_t> candidates;
    if (counter < recorded_by_index_.size()) {
        for (const std::uint32_t s : recorded_by_index_[counter])
            if (per_cpu_[s] || core == 0) candidates.push_back(s);
    }
    if (candidates.empty()) {
        if (counter < series_) return {counter, false};
        return {};
    }
    if (candidates.size() == 1) return {candidates.front(), false};
    const bool global =
        std::find(candidates.begin(), candidates.end(), counter) != candidates.end();
    return {global ? counter : candidates.front(), true};
}

}  // namespace apcgate::collectors::barman
