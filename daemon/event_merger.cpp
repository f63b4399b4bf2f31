#include "daemon/event_merger.hpp"

#include <limits>

namespace apcgate::daemon {

void EventMerger::push(std::size_t source, std::vector<model::Event>& events,
                       model::Nanos watermark, bool finished) {
    Queue& q = queues_.at(source);
    for (auto& e : events) q.events.push_back(std::move(e));
    events.clear();
    if (watermark > q.watermark) q.watermark = watermark;
    q.finished = q.finished || finished;
}

void EventMerger::release(const std::function<void(model::Event&)>& emit, bool everything) {
    model::Nanos limit = std::numeric_limits<model::Nanos>::max();
    if (!everything) {
        for (const auto& q : queues_)
            if (!q.finished && q.watermark < limit) limit = q.watermark;
    }
    // Few sources (a handful): a linear scan of the queue heads beats a heap here.
    for (;;) {
        Queue* best = nullptr;
        model::Nanos best_ts = 0;
        for (auto& q : queues_) {
            if (q.events.empty()) continue;
            const model::Nanos ts = model::timestamp_of(q.events.front());
            if (ts > limit) continue;
            if (best == nullptr || ts < best_ts) {
                best = &q;
                best_ts = ts;
            }
        }
        if (best == nullptr) return;
        emit(best->events.front());
        best->events.pop_front();
    }
}

std::size_t EventMerger::pending() const {
    std::size_t n = 0;
    for (const auto& q : queues_) n += q.events.size();
    return n;
}

}  // namespace apcgate::daemon
