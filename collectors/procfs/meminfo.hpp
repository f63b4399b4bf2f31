// /proc/meminfo: the few fields the memory counters need, in bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace apcgate::collectors::procfs {

struct MemInfo {
    std::optional<std::uint64_t> total, free, buffers, cached, sreclaimable;
    int malformed_lines = 0;  // a wanted field whose value did not parse
};

MemInfo parse_meminfo(std::string_view text);

// The memory counters, in bytes. Chosen so the four stack to MemTotal in one chart, the way
// `free` splits memory: used = MemTotal - MemFree - Buffers - Cached - SReclaimable, and "cached"
// is page cache plus reclaimable slab (what `free` calls cache). SReclaimable is 0 when absent
// (kernels before 2.6.19).
struct MemoryCounters {
    std::optional<std::uint64_t> used, free, cached, buffers;
};

MemoryCounters memory_counters(const MemInfo& m);

}  // namespace apcgate::collectors::procfs
