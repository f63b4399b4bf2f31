#include "daemon/analysis/switch_order.hpp"

#include <limits>

namespace apcgate::daemon::analysis {

void SwitchOrder::pop() {
    const TimelineChange c = pending_.top().change;
    pending_.pop();
    last_out_ = c.ts;
    out_(c);
}

void SwitchOrder::release(std::int64_t up_to) {
    while (!pending_.empty() && pending_.top().change.ts <= up_to) pop();
}

void SwitchOrder::recompute_low() {
    low_ = std::numeric_limits<std::int64_t>::max();
    low_cpu_ = -1;
    for (const auto& [c, t] : latest_) {
        if (t < low_) low_ = t, low_cpu_ = c;
    }
    release(low_);
}

void SwitchOrder::expect(std::int32_t cpu) {
    if (latest_.try_emplace(cpu, std::numeric_limits<std::int64_t>::min()).second) recompute_low();
}

void SwitchOrder::forget(std::int32_t cpu) {
    if (latest_.erase(cpu) > 0) recompute_low();
}

void SwitchOrder::reached(std::int32_t cpu, std::int64_t ts) {
    auto [it, added] = latest_.try_emplace(cpu, ts);
    if (!added) {
        if (ts <= it->second) return;
        it->second = ts;
    }
    // The lowest time moves only when its CPU advances or a CPU is new.
    if (added || cpu == low_cpu_) recompute_low();
}

void SwitchOrder::add(const TimelineChange& c) {
    if (last_out_ && c.ts < *last_out_) ++late_;
    pending_.push({c, seq_++});
    while (pending_.size() > kMaxPending) pop();
}

void SwitchOrder::flush() {
    while (!pending_.empty()) pop();
}

}  // namespace apcgate::daemon::analysis
