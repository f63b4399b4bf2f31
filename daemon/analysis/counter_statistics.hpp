// Per counter: samples, min, mean and max of its values, and for delta and incident counters
// (whose values are increments) their total; in the counter's units, values multiplied by its
// events.xml multiplier. One entry per counter key the capture declares.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "daemon/analysis/report.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon::analysis {

class CounterStatistics {
  public:
    CounterStatistics(const std::vector<xml::CapturedCounter>& declared,
                      const std::vector<xml::EventInfo>& events);

    void value(std::int32_t key, std::int64_t v);
    // Values folded in by another reader (the Perf framing's tally), already summed up.
    void values(std::int32_t key, std::uint64_t n, std::int64_t min, std::int64_t max,
                std::optional<double> sum);
    void fill(Report& r) const;

  private:
    struct Entry {
        CounterRow row;
        std::int64_t min = 0, max = 0;
        double sum = 0;
        bool has_sum = true;
    };
    std::map<std::int32_t, Entry> counters_;
};

}  // namespace apcgate::daemon::analysis
