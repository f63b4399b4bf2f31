// Finds the kernel's tracepoint descriptions (id and format, under tracefs events/) for the
// tracepoints the collector opens. A mounted tracefs is used as it is and left alone. When none
// is mounted, tracefs is mounted privately on a fresh directory just long enough to read the
// files, then unmounted and the directory removed: the perf events opened from those ids need
// no mounted tracefs, so nothing on the system is left changed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "collectors/perf/tracepoint_format.hpp"

namespace apcgate::collectors::perf {

struct TracepointInfo {
    std::uint32_t id = 0;
    TracepointFormat format;
    // The format file as the kernel wrote it: a Perf-type capture carries it unchanged (FORMAT),
    // and a private tracefs mount it was read from is gone by capture time.
    std::string format_text;
};

struct TracefsProbe {
    std::map<std::string, TracepointInfo> found;  // by "system/name"
    std::vector<std::string> problems;            // why a wanted tracepoint is missing
    std::string where;                            // the tracefs used, or why there was none
};

// `root`: a tracefs (or fake tree) to read; empty: find a mounted one via <proc_root>/self/mounts
// or mount one privately as described above.
TracefsProbe read_tracepoints(const std::vector<std::string>& wanted,
                              const std::filesystem::path& root,
                              const std::filesystem::path& proc_root);

// The tracefs mount point listed in a mounts text (proc(5) /proc/self/mounts), "" if none.
std::string tracefs_in_mounts(std::string_view mounts);

}  // namespace apcgate::collectors::perf
