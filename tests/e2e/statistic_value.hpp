// Reading a statistic from a `--json` report's "statistics" array (statistics_output.hpp's
// shape: one object per statistic with its name, value, severity and description).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace apcgate::e2e {

// The value of the statistic `name` in `statistics`; nullopt when it is not listed.
inline std::optional<std::uint64_t> statistic_value(const nlohmann::json& statistics,
                                                    std::string_view name) {
    if (!statistics.is_array()) return std::nullopt;
    for (const auto& s : statistics)
        if (s.value("name", std::string()) == name) return s["value"].get<std::uint64_t>();
    return std::nullopt;
}

}  // namespace apcgate::e2e
