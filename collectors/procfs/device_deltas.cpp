#include "collectors/procfs/device_deltas.hpp"

#include <algorithm>

namespace apcgate::collectors::procfs {

void DeviceDeltas::begin_sample() {
    for (auto& e : entries_) e.seen = false;
}

DeviceDeltas::Pair DeviceDeltas::update(std::string_view name, std::uint64_t a, std::uint64_t b) {
    for (auto& e : entries_) {
        if (e.name != name) continue;
        e.seen = true;
        const Pair d{a >= e.a ? a - e.a : 0, b >= e.b ? b - e.b : 0};
        e.a = a;
        e.b = b;
        return d;
    }
    entries_.push_back(Entry{std::string(name), a, b, true});
    return {};
}

void DeviceDeltas::end_sample() {
    std::erase_if(entries_, [](const Entry& e) { return !e.seen; });
}

}  // namespace apcgate::collectors::procfs
