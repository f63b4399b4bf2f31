// What `convert --json` prints, and the short text summary otherwise.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "daemon/capture/capture_engine.hpp"

namespace apcgate::daemon {

nlohmann::json error_json(const Error& e);
nlohmann::json report_json(const collectors::ingest::IngestReport& r);
// One line per input plus its record kinds, for a terminal.
std::string report_text(const collectors::ingest::IngestReport& r);
// The same for the daemon's log at the end of a `serve --source` capture (only the log sees
// what a trace input read there): a line per input, a warning per problem (at most
// kMaxLoggedProblems, then a count) and one for what ended reading early.
inline constexpr std::size_t kMaxLoggedProblems = 10;
void log_report(const collectors::ingest::IngestReport& r);

}  // namespace apcgate::daemon
