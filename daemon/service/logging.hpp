#pragma once

#include <string>

namespace apcgate::daemon {

// Logs to stderr; without timestamps when stderr is the journal (systemd sets JOURNAL_STREAM),
// which stamps lines itself. `level` is an spdlog level name (trace..off).
void setup_logging(const std::string& level);

}  // namespace apcgate::daemon
