#include "daemon/server/slot_policy.hpp"

namespace apcgate::daemon {

namespace {

int rank(const SlotState& s) {  // lower gives up its slot first
    if (s.capture) return 3;
    if (s.closing) return 0;
    return s.handshake_done ? 2 : 1;
}

}  // namespace

std::optional<std::size_t> slot_to_free(std::span<const SlotState> slots) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (slots[i].capture) continue;
        if (!best) {
            best = i;
            continue;
        }
        const SlotState& a = slots[i];
        const SlotState& b = slots[*best];
        if (rank(a) < rank(b) || (rank(a) == rank(b) && a.since < b.since)) best = i;
    }
    return best;
}

}  // namespace apcgate::daemon
