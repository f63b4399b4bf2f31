// The counters an archive's counter events make: one series per (event name, argument name),
// as the issue asks, found by the prescan so they can be declared before the capture starts.
// Values are levels (class Absolute) sent in Counter frames (Delivery Single). Doubles are sent
// as integers scaled by 10^decimals, with the counter's multiplier set to 10^-decimals; the
// decimals are the most that keep the largest value within 2^53.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collectors/fxt/records.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::fxt {

struct CounterSeries {
    std::string identifier;  // the events XML counter name, "FXT_..."
    std::string category;    // of the first event seen
    std::string event;
    std::string arg;
    bool fractional = false;  // a double with a fraction was seen
    double max_abs = 0.0;
    int decimals = 0;
};

class CounterSeriesSet {
  public:
    // Bounds the catalog an archive can make (each series is a chart row in Streamline).
    static constexpr std::size_t kMaxSeries = 512;

    static bool is_number(const Arg& a);
    // Prescan: notes a numeric argument of a counter event.
    void observe(std::string_view category, std::string_view event, const Arg& arg);
    // Prescan done: fixes the decimals of every series.
    void finish();

    // The series of (event, arg), nullopt when there is none (not a number, or past the limit).
    [[nodiscard]] std::optional<std::size_t> find(std::string_view event,
                                                  std::string_view arg) const;
    // The value to send for `arg` in `series`, nullopt for NaN and infinities.
    [[nodiscard]] std::optional<std::int64_t> value(std::size_t series, const Arg& arg) const;

    [[nodiscard]] const std::vector<CounterSeries>& series() const { return series_; }
    void declare(model::CounterCatalog& catalog) const;

  private:
    const std::string& key(std::string_view event, std::string_view arg) const;

    std::vector<CounterSeries> series_;
    std::unordered_map<std::string, std::size_t> index_;  // "event\x1farg" -> series
    std::unordered_set<std::string> identifiers_;
    mutable std::string key_;  // reused lookup key: no allocation per sample
};

}  // namespace apcgate::collectors::fxt
