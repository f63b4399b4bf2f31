// What `convert --json` prints, and the short text summary otherwise.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "daemon/capture_engine.hpp"

namespace apcgate::daemon {

nlohmann::json error_json(const Error& e);
nlohmann::json report_json(const collectors::ingest::IngestReport& r);
// One line per input plus its record kinds, for a terminal.
std::string report_text(const collectors::ingest::IngestReport& r);

}  // namespace apcgate::daemon
