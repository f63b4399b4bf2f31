// When stderr is systemd's journal, prefixes every log line with its syslog priority ("<6>" for
// info, "<4>" for warn, ...): journald reads the prefix (SyslogLevelPrefix=, on by default), so
// `journalctl -p warning -u apcgate` filters and colours lines by level. logging.cpp already
// drops timestamps there (the journal stamps lines itself).
#pragma once

#include <spdlog/common.h>

namespace apcgate::daemon {

// syslog priority of an spdlog level: debug 7, info 6, warn 4, error 3, critical 2.
int syslog_priority(spdlog::level::level_enum level);

// True when JOURNAL_STREAM names the device and inode of our stderr (what systemd documents
// as the check: a redirected stderr is not the journal even if the variable was inherited).
bool stderr_is_journal();

// Switches the default logger to "<N>message" lines if stderr_is_journal(); else no change.
void use_journal_priorities();

}  // namespace apcgate::daemon
