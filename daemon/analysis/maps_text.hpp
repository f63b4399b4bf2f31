// The /proc/PID/maps text of a process that was running when a Perf-framing capture began
// (PERF_ATTRS MAPS): its executable mappings, one line at a time, with the perf collector's own
// line grammar (collectors/perf/proc_reader.hpp, parse_maps). A line longer than any the kernel
// writes (a path is at most PATH_MAX) or one that breaks the grammar is skipped and counted by
// reason; the caller's bound on mappings stops the rest, counted too. Nothing is kept here, so
// memory does not grow with the text.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "collectors/perf/proc_reader.hpp"

namespace apcgate::daemon::analysis {

struct MapsSkipped {
    std::uint64_t malformed = 0;   // a line that breaks the grammar
    std::uint64_t too_long = 0;    // a line past kMaxMapsLineBytes
    std::uint64_t past_limit = 0;  // executable mappings the caller had no room for
    [[nodiscard]] std::uint64_t total() const { return malformed + too_long + past_limit; }
    MapsSkipped& operator+=(const MapsSkipped& o) {
        malformed += o.malformed, too_long += o.too_long, past_limit += o.past_limit;
        return *this;
    }
};

// PATH_MAX (4096) plus the fixed fields and a " (deleted)" suffix.
inline constexpr std::size_t kMaxMapsLineBytes = 4096 + 256;

// Calls `each` for every executable mapping with a path, in text order; `each` returns false
// when it has no room for it (counted as past_limit).
MapsSkipped for_each_executable_mapping(
    std::string_view text, const std::function<bool(const collectors::perf::MapsEntry&)>& each);

}  // namespace apcgate::daemon::analysis
