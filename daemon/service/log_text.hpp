// Text a client controls (counter names from a delivered configuration, errors quoting what it
// sent) made safe for one log line. The log is the journal under systemd: a raw newline there
// forges a whole entry of its own, and an escape sequence rewrites the terminal of whoever reads
// the log. Every place that logs client text passes it through loggable() first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::daemon {

// Longest piece of client text one log line carries (before escaping).
inline constexpr std::size_t kLoggableBytes = 200;

// `text` on one line: backslash, newline, CR and tab as \\ \n \r \t; other control bytes (C0,
// DEL, C1), bytes of invalid UTF-8 and U+2028/U+2029 as \xNN; valid UTF-8 otherwise kept.
// Longer than `max_bytes`: cut on a character boundary and marked "...(N bytes)".
std::string loggable(std::string_view text, std::size_t max_bytes = kLoggableBytes);

// Many names in one line: "a, b, c and 30474 more" (each loggable(), at most `examples` shown).
std::string loggable_examples(const std::vector<std::string>& names, std::size_t examples = 3);

}  // namespace apcgate::daemon
