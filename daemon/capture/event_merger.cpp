#include "daemon/capture/event_merger.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace apcgate::daemon {

void EventMerger::push(std::size_t source, std::vector<model::Event>& events,
                       model::Nanos watermark, bool finished) {
    Queue& q = queues_.at(source);
    if (q.empty()) {
        // Take the batch over whole; the caller gets our drained vector (and its capacity) back.
        q.events.swap(events);
        q.head = 0;
    } else {
        if (q.head > 0) {  // drop what was released before appending
            q.events.erase(q.events.begin(),
                           q.events.begin() + static_cast<std::ptrdiff_t>(q.head));
            q.head = 0;
        }
        q.events.insert(q.events.end(), std::make_move_iterator(events.begin()),
                        std::make_move_iterator(events.end()));
    }
    events.clear();
    if (watermark > q.watermark) q.watermark = watermark;
    q.finished = q.finished || finished;
}

model::Nanos EventMerger::release_limit(bool everything) const {
    model::Nanos limit = std::numeric_limits<model::Nanos>::max();
    if (!everything) {
        for (const auto& q : queues_)
            if (!q.finished && q.watermark < limit) limit = q.watermark;
    }
    return limit;
}

bool EventMerger::next_run(model::Nanos limit, Run& run) const {
    constexpr model::Nanos kMax = std::numeric_limits<model::Nanos>::max();
    // Few sources (a handful): a linear scan of the queue heads beats a heap here.
    std::size_t best = queues_.size();
    model::Nanos best_ts = 0;
    for (std::size_t i = 0; i < queues_.size(); ++i) {
        const Queue& q = queues_[i];
        if (q.empty()) continue;
        const model::Nanos ts = q.front_ts();
        if (ts > limit) continue;
        if (best == queues_.size() || ts < best_ts) {
            best = i;
            best_ts = ts;
        }
    }
    if (best == queues_.size()) return false;
    // The run the best queue may emit before another queue's head must go first: up to the
    // heads of later sources inclusive (ties keep source order), of earlier ones exclusive.
    run = Run{best, kMax, limit};
    for (std::size_t i = 0; i < queues_.size(); ++i) {
        if (i == best || queues_[i].empty()) continue;
        const model::Nanos ts = queues_[i].front_ts();
        if (i < best)
            run.before = std::min(run.before, ts);
        else
            run.upto = std::min(run.upto, ts);
    }
    return true;
}

// How many of `items` from `first` on (at least the first) lie within the run's bounds. Items
// are in time order: the first one past the bounds ends the prefix. The first item is the
// queue's head, which next_run() chose, so it always goes.
template <typename Items>
std::size_t EventMerger::prefix_within(const Items& items, std::size_t first, const Run& run) {
    if (items.size() - first <= 1) return items.size() - first;
    const auto begin = items.begin() + static_cast<std::ptrdiff_t>(first);
    const auto stop = std::partition_point(begin + 1, items.end(), [&run](const auto& i) {
        return i.ts < run.before && i.ts <= run.upto;
    });
    return static_cast<std::size_t>(stop - begin);
}

std::size_t EventMerger::span_prefix(const model::SpanRun& spans, const Run& run) {
    return prefix_within(spans.items, spans.first, run);
}

model::Event EventMerger::take_front(model::SpanRun& spans, std::size_t n) {
    model::SpanRun front;
    front.items.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const model::SpanItem& i = spans.items[spans.first + k];
        front.add(i.ts, i.core, i.tid, i.channel, spans.text(i));
    }
    spans.advance(n);
    return model::Event(std::move(front));
}

std::size_t EventMerger::sample_prefix(const model::SampleRun& samples, const Run& run) {
    return prefix_within(samples.samples, samples.first, run);
}

model::Event EventMerger::take_front(model::SampleRun& samples, std::size_t n) {
    model::SampleRun front;
    const auto begin = samples.samples.begin() + static_cast<std::ptrdiff_t>(samples.first);
    front.samples.assign(begin, begin + static_cast<std::ptrdiff_t>(n));
    samples.advance(n);
    return model::Event(std::move(front));
}

void EventMerger::drop_released() {
    for (auto& q : queues_) {
        if (q.empty() && q.head > 0) {  // keep the capacity, drop the moved-from events
            q.events.clear();
            q.head = 0;
        }
    }
}

std::size_t EventMerger::pending() const {
    std::size_t n = 0;
    for (const auto& q : queues_) n += q.events.size() - q.head;
    return n;
}

}  // namespace apcgate::daemon
