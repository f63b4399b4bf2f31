#include "daemon/analysis/counter_statistics.hpp"

#include <algorithm>

namespace apcgate::daemon::analysis {

CounterStatistics::CounterStatistics(const std::vector<xml::CapturedCounter>& declared,
                                     const std::vector<xml::EventInfo>& events) {
    for (const auto& c : declared) {
        Entry e;
        e.row.key = c.key;
        e.row.name = c.type;
        for (const auto& ev : events) {
            if (ev.counter != c.type) continue;
            e.row.title = ev.category + ": " + ev.title + (ev.name.empty() ? "" : " " + ev.name);
            e.row.units = ev.units;
            e.row.counter_class = ev.cls;
            e.row.multiplier = ev.multiplier;
            break;
        }
        counters_[c.key] = std::move(e);
    }
}

void CounterStatistics::value(std::int32_t key, std::int64_t v) {
    auto it = counters_.find(key);
    if (it == counters_.end()) return;  // undeclared keys: inspect reports them
    Entry& e = it->second;
    if (e.row.samples == 0) {
        e.min = e.max = v;
    } else {
        e.min = std::min(e.min, v);
        e.max = std::max(e.max, v);
    }
    ++e.row.samples;
    e.sum += static_cast<double>(v);
}

void CounterStatistics::values(std::int32_t key, std::uint64_t n, std::int64_t min,
                               std::int64_t max, std::optional<double> sum) {
    auto it = counters_.find(key);
    if (it == counters_.end() || n == 0) return;
    Entry& e = it->second;
    e.row.samples = n;
    e.min = min;
    e.max = max;
    e.has_sum = sum.has_value();
    e.sum = sum.value_or(0);
}

void CounterStatistics::fill(Report& r) const {
    for (const auto& [key, e] : counters_) {
        CounterRow row = e.row;
        const double m = row.multiplier;
        if (row.samples > 0) {
            row.min = static_cast<double>(e.min) * m;
            row.max = static_cast<double>(e.max) * m;
            if (e.has_sum) row.mean = e.sum * m / static_cast<double>(row.samples);
        }
        const bool increments = row.counter_class == "delta" || row.counter_class == "incident";
        if (increments && e.has_sum) row.total = e.sum * m;
        r.counters.push_back(std::move(row));
    }
}

}  // namespace apcgate::daemon::analysis
