#include "collectors/barman/event_order.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <type_traits>

namespace apcgate::collectors::barman {

void EventOrder::add_loose_events() {
    for (; covered_samples_ < samples_.size(); ++covered_samples_)
        runs_.push_back({samples_[covered_samples_].ts, seq_++,
                         static_cast<std::uint32_t>(covered_samples_), 1, true});
    for (; covered_ < pending_.size(); ++covered_)
        runs_.push_back({model::timestamp_of(pending_[covered_]), seq_++,
                         static_cast<std::uint32_t>(covered_), 1, false});
}

bool EventOrder::sort_runs() {
    if (std::is_sorted(runs_.begin(), runs_.end())) return false;
    // The agent's stores are out of order by a few records at most, so an insertion sort moves
    // each run a short way; one that moves runs too far (a store that breaks the agent's rule)
    // is finished by std::sort, so that no input makes this quadratic. Runs compare by their
    // sequence number after the time, so both keep equal times in store order.
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
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, model::SpanRun>) {
                for (auto& i : v.items) i.ts = std::max(i.ts, watermark_);
            } else if constexpr (std::is_same_v<T, model::SampleRun>) {
                for (auto& s : v.samples) s.ts = std::max(s.ts, watermark_);
            } else {
                v.ts = watermark_;
            }
        },
        e);
}

void EventOrder::keep_held_back(std::size_t released_runs, bool sorted) {
    const auto released = runs_.begin() + static_cast<std::ptrdiff_t>(released_runs);
    if (!sorted) {
        // Still in store order: the released events and samples are prefixes of pending_ and
        // samples_, up to the first held run of each kind.
        std::uint32_t gone = static_cast<std::uint32_t>(pending_.size());
        std::uint32_t gone_samples = static_cast<std::uint32_t>(samples_.size());
        for (auto r = released; r != runs_.end(); ++r)
            (r->samples ? gone_samples : gone) =
                std::min(r->samples ? gone_samples : gone, r->first);
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(gone));
        samples_.erase(samples_.begin(),
                       samples_.begin() + static_cast<std::ptrdiff_t>(gone_samples));
        runs_.erase(runs_.begin(), released);
        for (Run& r : runs_) r.first -= r.samples ? gone_samples : gone;
    } else {
        scratch_.clear();
        sample_scratch_.clear();
        auto kept = runs_.begin();
        for (auto r = released; r != runs_.end(); ++r, ++kept) {
            std::uint32_t first = 0;
            if (r->samples) {
                first = static_cast<std::uint32_t>(sample_scratch_.size());
                const auto from = samples_.begin() + r->first;
                sample_scratch_.insert(sample_scratch_.end(), from, from + r->count);
            } else {
                first = static_cast<std::uint32_t>(scratch_.size());
                for (std::uint32_t i = r->first; i < r->first + r->count; ++i)
                    scratch_.push_back(std::move(pending_[i]));
            }
            *kept = Run{r->ts, r->seq, first, r->count, r->samples};
        }
        runs_.erase(kept, runs_.end());
        pending_.swap(scratch_);
        samples_.swap(sample_scratch_);
    }
    covered_ = pending_.size();
    covered_samples_ = samples_.size();
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
    // Samples that follow one another go to one SampleRun, sized for the whole stretch.
    model::SampleRun* open = nullptr;  // out.back() while samples are being added to it
    for (auto run = runs_.begin(); run != end; ++run) {
        const bool late = run->ts < watermark_;
        if (late) moved_up_ += run->count;
        if (!run->samples) {
            open = nullptr;
            for (std::uint32_t i = run->first; i < run->first + run->count; ++i) {
                model::Event& e = pending_[i];
                if (late) move_up(e);
                out.push_back(std::move(e));
            }
            continue;
        }
        if (open == nullptr) {
            std::size_t stretch = 0;
            for (auto r = run; r != end && r->samples; ++r) stretch += r->count;
            open = &std::get<model::SampleRun>(out.emplace_back(model::SampleRun{}));
            open->samples.reserve(stretch);
        }
        if (late) {
            const auto from = samples_.begin() + run->first;
            open->samples.insert(open->samples.end(), from, from + run->count);
            for (auto s = open->samples.end() - run->count; s != open->samples.end(); ++s)
                s->ts = watermark_;
            continue;
        }
        // The runs that follow it mostly lie right after it in samples_ (all of them until a
        // sort moves one): they are copied in one go, not a record's few samples at a time.
        const auto from = samples_.begin() + run->first;
        std::size_t count = run->count;
        while (run + 1 != end && (run + 1)->samples && (run + 1)->ts >= watermark_ &&
               (run + 1)->first == run->first + run->count) {
            ++run;
            count += run->count;
        }
        open->samples.insert(open->samples.end(), from, from + static_cast<std::ptrdiff_t>(count));
    }
    if (end != runs_.begin()) watermark_ = std::max(watermark_, (end - 1)->ts);
    keep_held_back(static_cast<std::size_t>(end - runs_.begin()), sorted);
    if (!everything) watermark_ = std::max(watermark_, horizon);
    return watermark_;
}

}  // namespace apcgate::collectors::barman
