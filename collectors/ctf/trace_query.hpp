// The time span of a CTF trace without reading its events: source.ctf.fs's
// "babeltrace.trace-infos" query answers from the packet index (each packet context's
// timestamp_begin / timestamp_end, CTF 1.8 section 5), giving, per data stream,
//   { port-name: "UUID | stream class id | FILE", range-ns: { begin: ns, end: ns } }
// The earliest begin is the trace's time origin; the span gives conversion progress.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <filesystem>
#include <optional>

#include "collectors/ctf/bt_ref.hpp"

namespace apcgate::collectors::ctf {

struct TimeRange {
    std::int64_t begin = 0;  // ns from the clock's origin
    std::int64_t end = 0;
};

// source.ctf.fs's parameters for the one trace in `dir` ({ inputs: [dir] }); empty when
// libbabeltrace2 runs out of memory. Shared by the graph that reads the trace and the query.
ValueRef fs_source_params(const std::filesystem::path& dir);

// The union of the streams' ranges of the trace in `dir`; nullopt when the trace's streams have
// no clock or the query fails (its error is cleared: the conversion does not need it).
std::optional<TimeRange> query_time_range(const bt_plugin* ctf, const std::filesystem::path& dir);

}  // namespace apcgate::collectors::ctf
