#include "collectors/procfs/meminfo.hpp"

#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {

MemInfo parse_meminfo(std::string_view text) {
    MemInfo m;
    // Lines look like "MemTotal:       24684084 kB"; values are in KiB despite the "kB".
    while (!text.empty()) {
        std::string_view line = next_line(text);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view key = line.substr(0, colon);
        std::optional<std::uint64_t>* slot = nullptr;
        if (key == "MemTotal")
            slot = &m.total;
        else if (key == "MemFree")
            slot = &m.free;
        else if (key == "Buffers")
            slot = &m.buffers;
        else if (key == "Cached")
            slot = &m.cached;
        else if (key == "SReclaimable")
            slot = &m.sreclaimable;
        else
            continue;
        line.remove_prefix(colon + 1);
        const auto kib = next_u64(line);
        const std::string_view unit = next_field(line);
        if (!kib || (unit != "kB" && !unit.empty()) || *kib > (UINT64_MAX >> 10)) {
            ++m.malformed_lines;
            continue;
        }
        *slot = *kib * 1024;
    }
    return m;
}

MemoryCounters memory_counters(const MemInfo& m) {
    MemoryCounters c;
    c.free = m.free;
    c.buffers = m.buffers;
    if (m.cached) c.cached = *m.cached + m.sreclaimable.value_or(0);
    if (m.total && m.free && m.buffers && m.cached) {
        const std::uint64_t others = *m.free + *m.buffers + *m.cached + m.sreclaimable.value_or(0);
        // Never negative: the fields are read at slightly different instants by the kernel.
        c.used = *m.total > others ? *m.total - others : 0;
    }
    return c;
}

}  // namespace apcgate::collectors::procfs
