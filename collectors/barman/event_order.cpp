#include "collectors/barman/event_order.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <type_traits>

namespace apcgate::collectors::barman {

void EventOrder::add_record(model::Nanos ts) {
    recent_.push_back(ts);
    if (recent_.size() > lookback_) recent_.pop_front();
}

void EventOrder::sort_pending() {
    // Usually the new events already follow in order: check before sorting anything.
    bool in_order = true;
    model::Nanos last = sorted_ > 0 ? model::timestamp_of(pending_[sorted_ - 1]) : 0;
    for (std::size_t i = sorted_; i < pending_.size() && in_order; ++i) {
        const model::Nanos ts = model::timestamp_of(pending_[i]);
        in_order = i == 0 || ts >= last;
        last = ts;
    }
    sorted_ = pending_.size();
    if (in_order) return;
    // Sort (timestamp, position) pairs, which is stable and cheap, then move each event once.
    keys_.clear();
    for (std::size_t i = 0; i < pending_.size(); ++i)
        keys_.emplace_back(model::timestamp_of(pending_[i]), static_cast<std::uint32_t>(i));
    std::sort(keys_.begin(), keys_.end());
    scratch_.clear();
    scratch_.reserve(pending_.size());
    for (const auto& key : keys_) scratch_.push_back(std::move(pending_[key.second]));
    pending_.swap(scratch_);
}

model::Nanos EventOrder::release(std::vector<model::Event>& out, bool everything) {
    sort_pending();
    model::Nanos horizon = std::numeric_limits<model::Nanos>::max();
    if (!everything) {
        if (recent_.empty()) return watermark_;
        horizon = *std::min_element(recent_.begin(), recent_.end());
    }
    const auto end = std::upper_bound(
        pending_.begin(), pending_.end(), horizon,
        [](model::Nanos h, const model::Event& e) { return h < model::timestamp_of(e); });
    out.reserve(out.size() + static_cast<std::size_t>(end - pending_.begin()));
    for (auto it = pending_.begin(); it != end; ++it) {
        if (model::timestamp_of(*it) < watermark_) {
            std::visit(
                [this](auto& e) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(e)>, model::SpanRun>) {
                        for (auto& i : e.items) i.ts = std::max(i.ts, watermark_);
                    } else {
                        e.ts = watermark_;
                    }
                },
                *it);
            ++moved_up_;
        }
        out.push_back(std::move(*it));
    }
    if (end != pending_.begin()) watermark_ = std::max(watermark_, model::timestamp_of(out.back()));
    pending_.erase(pending_.begin(), end);
    sorted_ = pending_.size();
    if (!everything) watermark_ = std::max(watermark_, horizon);
    return watermark_;
}

}  // namespace apcgate::collectors::barman
