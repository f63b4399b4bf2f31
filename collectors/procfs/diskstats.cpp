#include "collectors/procfs/diskstats.hpp"

#include <unistd.h>

#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {

int parse_diskstats(std::string_view text, std::vector<DiskStatLine>& out) {
    out.clear();
    int malformed = 0;
    while (!text.empty()) {
        std::string_view line = next_line(text);
        if (trim(line).empty()) continue;
        // "major minor name reads reads_merged sectors_read ms_reading writes writes_merged
        //  sectors_written ..." (later kernels append discard and flush columns).
        DiskStatLine d;
        const bool ids = next_u64(line).has_value() && next_u64(line).has_value();
        d.name = next_field(line);
        bool ok = ids && !d.name.empty();
        std::optional<std::uint64_t> f[7];
        for (auto& v : f) {
            v = next_u64(line);
            ok = ok && v.has_value();
        }
        if (!ok) {
            ++malformed;
            continue;
        }
        d.sectors_read = *f[2];
        d.sectors_written = *f[6];
        out.push_back(d);
    }
    return malformed;
}

bool DiskFilter::available() const {
    return ::access((sys_root_ / "block").c_str(), F_OK) == 0;
}

bool DiskFilter::counts(std::string_view name) {
    for (const auto& [n, yes] : cache_)
        if (n == name) return yes;
    // sysfs spells a '/' in a device name (e.g. "cciss/c0d0") as '!'.
    std::string sys_name(name);
    for (char& c : sys_name)
        if (c == '/') c = '!';
    const bool yes = sys_name != "." && sys_name != ".." &&
                     ::access((sys_root_ / "block" / sys_name / "device").c_str(), F_OK) == 0;
    cache_.emplace_back(std::string(name), yes);
    return yes;
}

}  // namespace apcgate::collectors::procfs
