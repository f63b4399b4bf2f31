// /proc/loadavg: "0.23 0.16 0.06 1/86 4573". The load averages are kept as hundredths (the
// kernel prints exactly two decimals), so they travel as integers with multiplier 0.01.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace apcgate::collectors::procfs {

struct LoadAverage {
    std::int64_t one = 0, five = 0, fifteen = 0;  // hundredths
};

std::optional<LoadAverage> parse_loadavg(std::string_view text);
// "12.34" -> 1234; accepts 0-2 decimals; nullopt for anything else.
std::optional<std::int64_t> parse_hundredths(std::string_view field);

}  // namespace apcgate::collectors::procfs
