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

bool EventOrder::sort_keys() {
    keys_.clear();
    bool in_order = true;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        const model::Nanos ts = model::timestamp_of(pending_[i]);
        in_order = in_order && (i == 0 || ts >= keys_.back().first);
        keys_.emplace_back(ts, static_cast<std::uint32_t>(i));
    }
    if (in_order) return false;
    // The agent's stores are out of order by a few records at most, so an insertion sort moves
    // each key a short way; one that moves keys too far (a store that breaks the agent's rule)
    // is finished by std::sort, so that no input makes this quadratic. Both sort the
    // (timestamp, position) pairs, which is stable for the events.
    std::size_t budget = keys_.size() * 16;
    for (std::size_t i = 1; i < keys_.size(); ++i) {
        const Key k = keys_[i];
        std::size_t j = i;
        for (; j > 0 && k < keys_[j - 1] && budget > 0; --j, --budget) keys_[j] = keys_[j - 1];
        keys_[j] = k;
        if (budget == 0) {
            std::sort(keys_.begin(), keys_.end());
            break;
        }
    }
    return true;
}

model::Nanos EventOrder::release(std::vector<model::Event>& out, bool everything) {
    model::Nanos horizon = std::numeric_limits<model::Nanos>::max();
    if (!everything) {
        if (recent_.empty()) return watermark_;
        horizon = *std::min_element(recent_.begin(), recent_.end());
    }
    const bool sorted = sort_keys();
    const auto end = std::upper_bound(keys_.begin(), keys_.end(), horizon,
                                      [](model::Nanos h, const Key& k) { return h < k.first; });
    const auto released = static_cast<std::size_t>(end - keys_.begin());
    out.reserve(out.size() + released);
    // Each event moves once: straight from where the mapper put it to `out` in time order.
    for (auto it = keys_.begin(); it != end; ++it) {
        model::Event& e = pending_[it->second];
        if (it->first < watermark_) {
            std::visit(
                [this](auto& v) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, model::SpanRun>) {
                        for (auto& i : v.items) i.ts = std::max(i.ts, watermark_);
                    } else {
                        v.ts = watermark_;
                    }
                },
                e);
            ++moved_up_;
        }
        out.push_back(std::move(e));
    }
    if (released > 0) watermark_ = std::max(watermark_, model::timestamp_of(out.back()));
    // What is held back stays, in time order.
    if (!sorted) {
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(released));
    } else {
        scratch_.clear();
        for (auto it = end; it != keys_.end(); ++it)
            scratch_.push_back(std::move(pending_[it->second]));
        pending_.swap(scratch_);
    }
    if (!everything) watermark_ = std::max(watermark_, horizon);
    return watermark_;
}

}  // namespace apcgate::collectors::barman
