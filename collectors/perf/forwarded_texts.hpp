// The texts a Perf-type capture carries beside the ring-buffer records, read from this system:
// a process's /proc/PID/maps here, and /proc/kallsyms (MappedText), each whole. A Streamline
// reading the capture resolves addresses from them, as it does gatord's. (Tracepoint formats are
// the tracefs files kept by the probe: TracepointInfo::format_text.)
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace apcgate::collectors::perf {

// A /proc file's whole text ("" when it cannot be read: a process that exited meanwhile).
std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative);

}  // namespace apcgate::collectors::perf
