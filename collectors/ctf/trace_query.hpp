// What source.ctf.fs's queries say of trace directories without reading their events.
//
// Which directories are one trace: "babeltrace.support-info" on { input: DIR, type: "directory" }
// answers { weight, group }, the group being the trace's UUID when its metadata has one. The
// babeltrace2 command line gives the directories of one group to one source.ctf.fs as several
// `inputs`; the component then merges their streams into one trace (and keeps a packet it
// already has from another directory once). LTTng writes such directories: every
// `lttng snapshot record` output holds the same traces (same UUIDs) again.
//
// The time span of a CTF trace: source.ctf.fs's
// "babeltrace.trace-infos" query answers from the packet index (each packet context's
// timestamp_begin / timestamp_end, CTF 1.8 section 5), giving, per data stream,
//   { port-name: "UUID | stream class id | FILE", range-ns: { begin: ns, end: ns } }
// The earliest begin is the trace's time origin; the span gives conversion progress.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collectors/ctf/bt_ref.hpp"

namespace apcgate::collectors::ctf {

struct TimeRange {
    std::int64_t begin = 0;  // ns from the clock's origin
    std::int64_t end = 0;
};

// source.ctf.fs's parameters for the trace in `dirs` ({ inputs: [dirs...] }); empty when
// libbabeltrace2 runs out of memory. Shared by the graph that reads the trace and the query.
ValueRef fs_source_params(const std::vector<std::filesystem::path>& dirs);

// The trace directories grouped as the babeltrace2 command line groups them: those of the same
// support-info group together, a directory of no group (or whose query fails) alone; groups in
// the order of their first directory, directories in the order given.
std::vector<std::vector<std::filesystem::path>> group_traces(
    const bt_plugin* ctf, const std::vector<std::filesystem::path>& dirs);

// The union of the streams' ranges of the trace in `dir`; nullopt when the trace's streams have
// no clock or the query fails (its error is cleared: the conversion does not need it).
std::optional<TimeRange> query_time_range(const bt_plugin* ctf, const std::filesystem::path& dir);

}  // namespace apcgate::collectors::ctf
