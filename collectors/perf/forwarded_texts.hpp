// The texts a Perf-type capture carries beside the ring-buffer records, read from this system:
// a tracepoint's format file (as tracefs words it), a process's /proc/PID/maps and
// /proc/kallsyms, each whole. A Streamline reading the capture resolves addresses and tracepoint
// payloads from them, as it does gatord's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "collectors/perf/tracepoint_format.hpp"

namespace apcgate::collectors::perf {

// The format file text of a tracepoint, rebuilt from what was parsed of it (the file itself may
// have been read from a private tracefs mount that is gone by now).
std::string tracepoint_format_text(const TracepointFormat& format);

// A /proc file's whole text ("" when it cannot be read: a process that exited meanwhile).
std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative);

}  // namespace apcgate::collectors::perf
