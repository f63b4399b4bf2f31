#include "collectors/barman/event_order.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <type_traits>

namespace apcgate::collectors::barman {

void EventOrder::add_record(model::Nanos ts) {
    if (pending_.size() > covered_) {
        runs_.push_back({ts, static_cast<std::uint32_t>(covered_),
                         static_cast<std::uint32_t>(pending_.size() - covered_)});
        covered_ = pending_.size();
    }
    recent_.push_back(ts);
    if (recent_.size() > lookback_) recent_.pop_front();
}

void EventOrder::add_loose_events() {
    for (; covered_ < pending_.size(); ++covered_)
        runs_.push_back(
            {model::timestamp_of(pending_[covered_]), static_cast<std::uint32_t>(covered_), 1});
}

bool EventOrder::sort_runs() {
    if (std::is_sorted(runs_.begin(), runs_.end())) return false;
    // The agent's stores are out of order by a few records at most, so an insertion sort moves
    // each run a short way; one that moves runs too far (a store that breaks the agent's rule)
    // is finished by std::sort, so that no input makes this quadratic. Runs compare by their
    // first event's position after the time, so both keep equal times in store order.
    std::size_t budget = runs_.size() * 16;
    for (std::size_t i = 1; i < runs_.size(); ++i) {
        const Run r = runs_[i];
        std::size_t j = i;
        for (; j > 0 && r < runs_[j - 1] && budget > 0; --j, --budget) runs_[j] = runs_[j - 1];
        runs_[j] = r;
        if (budget == 0) {
            std::sort(runs_.begin(), runs_.end());
            break;
        }
    }
    return true;
}

void EventOrder::move_up(model::Event& e) const {
    std::visit(
        [this](auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, model::SpanRun>) {
                for (auto& i : v.items) i.ts = std::max(i.ts, watermark_);
            } else {
                v.ts = watermark_;
            }
        },
        e);
}

void EventOrder::keep_held_back(std::size_t released_runs, bool sorted) {
    const auto released = runs_.begin() + static_cast<std::ptrdiff_t>(released_runs);
    if (!sorted) {
        // Still in store order: the released events are a prefix of pending_.
        const std::uint32_t gone =
            released == runs_.begin() ? 0 : (released - 1)->first + (released - 1)->count;
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(gone));
        runs_.erase(runs_.begin(), released);
        for (Run& r : runs_) r.first -= gone;
    } else {
        scratch_.clear();
        auto kept = runs_.begin();
        for (auto r = released; r != runs_.end(); ++r, ++kept) {
            const auto first = static_cast<std::uint32_t>(scratch_.size());
            for (std::uint32_t i = r->first; i < r->first + r->count; ++i)
                scratch_.push_back(std::move(pending_[i]));
            *kept = Run{r->ts, first, r->count};
        }
        runs_.erase(kept, runs_.end());
        pending_.swap(scratch_);
    }
    covered_ = pending_.size();
}

model::Nanos EventOrder::release(std::vector<model::Event>& out, bool everything) {
    model::Nanos horizon = std::numeric_limits<model::Nanos>::max();
    if (!everything) {
        if (recent_.empty()) return watermark_;
        horizon = *std::min_element(recent_.begin(), recent_.end());
    }
    add_loose_events();  // none when every caller said which record its events are
    const bool sorted = sort_runs();
    const auto end = std::upper_bound(runs_.begin(), runs_.end(), horizon,
                                      [](model::Nanos h, const Run& r) { return h < r.ts; });
    out.reserve(out.size() + pending_.size());
    // Each event moves once: straight from where the mapper put it to `out` in time order.
    for (auto run = runs_.begin(); run != end; ++run) {
        const bool late = run->ts < watermark_;
        for (std::uint32_t i = run->first; i < run->first + run->count; ++i) {
            model::Event& e = pending_[i];
            if (late) move_up(e);
            out.push_back(std::move(e));
        }
        if (late) moved_up_ += run->count;
    }
    if (end != runs_.begin()) watermark_ = std::max(watermark_, (end - 1)->ts);
    keep_held_back(static_cast<std::size_t>(end - runs_.begin()), sorted);
    if (!everything) watermark_ = std::max(watermark_, horizon);
    return watermark_;
}

}  // namespace apcgate::collectors::barman
