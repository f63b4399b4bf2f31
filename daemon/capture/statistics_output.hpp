// The one printer of the statistics tables (protocol/model/statistic.hpp): JSON for
// `convert --json`, lines for a terminal and for the daemon's log. Each walks the specs, so a
// statistic declared in a collector's table is printed with its name, severity and description
// without the printer knowing the collector.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

// An array with one object per statistic, zero or not:
// {"name", "value", "severity" ("info", "data_loss", "error"), "description"}.
nlohmann::json statistics_json(std::span<const model::StatisticValue> values);
// One indented line per non-zero data-loss or error statistic: what a terminal user should see.
std::string statistics_text(std::span<const model::StatisticValue> values);
// The log at the end of a capture: a line per non-zero statistic, with its severity and
// description; a warning for data loss and errors, else at info level.
void log_statistics(std::string_view who, std::span<const model::StatisticValue> values);

}  // namespace apcgate::daemon
