#include "collectors/barman/series_resolver.hpp"

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
    for (std::uint32_t i = 0; i < recorded_by_index_.size(); ++i) {
        on_core0_.push_back(match(i, true));
        on_other_cores_.push_back(match(i, false));
    }
}

SeriesResolver::Resolved SeriesResolver::resolve(std::uint32_t counter, std::uint32_t core) const {
    if (counter < on_core0_.size())
        return core == 0 ? on_core0_[counter] : on_other_cores_[counter];
    return match(counter, core == 0);
}

SeriesResolver::Resolved SeriesResolver::match(std::uint32_t counter, bool core0) const {
    std::size_t candidates = 0;
    std::uint32_t first = 0;
    bool global = false;
    if (counter < recorded_by_index_.size()) {
        for (const std::uint32_t s : recorded_by_index_[counter]) {
            if (!per_cpu_[s] && !core0) continue;
            if (candidates++ == 0) first = s;
            global = global || s == counter;
        }
    }
    if (candidates == 0) {
        if (counter < series_) return {counter, false};
        return {};
    }
    if (candidates == 1) return {first, false};
    return {global ? counter : first, true};
}

}  // namespace apcgate::collectors::barman
