// Which custom chart series a custom counter value record (types 4 and 8) is about.
//
// The spec calls the record's `counter` field "the custom counter id", and a sample's custom
// values use the series' index in the header's custom_charts_series. Arm's generated agent,
// though, writes a recorded (not sampled) series' index *within its chart*, and writes core 0
// for charts that are not per-CPU. So a record is matched to the recorded series with that index
// in its chart whose chart could have written the record's core (any core for a per-CPU chart,
// core 0 otherwise). When no series matches, the id is taken as the spec's global index (a
// writer that follows the spec); when several match (two charts each with a recorded series at
// that index, on core 0), the record cannot say which: the global index wins if it is one of
// them, else the first, and the record is counted as ambiguous.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "collectors/barman/header.hpp"

namespace apcgate::collectors::barman {

class SeriesResolver {
  public:
    explicit SeriesResolver(const Header& header);

    struct Resolved {
        std::optional<std::uint32_t> series;  // index into the header's series
        bool ambiguous = false;
    };
    [[nodiscard]] Resolved resolve(std::uint32_t counter, std::uint32_t core) const;

  private:
    [[nodiscard]] Resolved match(std::uint32_t counter, bool core0) const;

    std::vector<std::vector<std::uint32_t>> recorded_by_index_;  // in-chart index -> series
    std::vector<bool> per_cpu_;                                  // per series: its chart's flag
    std::uint32_t series_ = 0;
    // match() for each in-chart index, on core 0 and on other cores (the only thing the core
    // changes): resolve() runs for every custom counter record, the match once per index.
    std::vector<Resolved> on_core0_;
    std::vector<Resolved> on_other_cores_;
};

}  // namespace apcgate::collectors::barman
