#include "daemon/capture/statistics_output.hpp"

#include <spdlog/spdlog.h>

namespace apcgate::daemon {

namespace {

bool worth_a_warning(const model::StatisticValue& v) {
    return v.value != 0 && v.spec->severity != model::Severity::Info;
}

}  // namespace

nlohmann::json statistics_json(std::span<const model::StatisticValue> values) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& v : values)
        j.push_back({{"name", v.spec->name},
                     {"value", v.value},
                     {"severity", model::severity_name(v.spec->severity)},
                     {"description", v.spec->description}});
    return j;
}

std::string statistics_text(std::span<const model::StatisticValue> values) {
    std::string out;
    for (const auto& v : values) {
        if (!worth_a_warning(v)) continue;
        out += "  " + std::string(v.spec->name) + " = " + std::to_string(v.value) + " (" +
               std::string(model::severity_name(v.spec->severity)) +
               "): " + std::string(v.spec->description) + "\n";
    }
    return out;
}

void log_statistics(std::string_view who, std::span<const model::StatisticValue> values) {
    for (const auto& v : values) {
        if (v.value == 0) continue;
        const model::StatisticSpec& s = *v.spec;
        const auto level = worth_a_warning(v) ? spdlog::level::warn : spdlog::level::info;
        spdlog::log(level, "{}: {} = {} ({}): {}", who, s.name, v.value,
                    model::severity_name(s.severity), s.description);
    }
}

}  // namespace apcgate::daemon
