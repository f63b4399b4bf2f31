// Merges the event streams of several sources onto one timeline. Each source hands over events
// in non-decreasing timestamp order together with a watermark (no later event of that source will
// be older). Events are released in timestamp order up to the lowest watermark of the sources
// that are still running, so a slow source never lets a faster one get ahead of it; ties keep
// source order, then arrival order.
//
// Why batches: ingesters hand over tens of thousands of events per poll and a converter moves
// millions per second, so a source's batch is taken over whole (a vector swap, no per-event
// move) and the head of the front-most source is emitted as a run up to the next source's head.
// A SpanRun (many annotations in one event) or SampleRun (many counter values and PC samples) is
// emitted whole when it ends before the next source's head, else split there: its front part is
// emitted and the rest waits its turn.
#pragma once

#include <cstddef>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::daemon {

class EventMerger {
  public:
    explicit EventMerger(std::size_t sources) : queues_(sources) {}

    // Appends a source's new events (moved from) and records its watermark / completion.
    void push(std::size_t source, std::vector<model::Event>& events, model::Nanos watermark,
              bool finished);
    // Releases every event that is safe to emit (all of them once every source is finished,
    // or when `everything` is set at the end of a capture), calling emit(model::Event&) on each.
    // A template: the emit call sits in the loop every event goes through.
    template <typename Emit>
    void release(Emit&& emit, bool everything = false) {
        const model::Nanos limit = release_limit(everything);
        Run run;
        while (next_run(limit, run)) {
            Queue& q = queues_[run.queue];
            do {
                model::Event& e = q.events[q.head];
                if (auto* spans = std::get_if<model::SpanRun>(&e)) {
                    // A run may reach past another source's head: only its front goes now.
                    if (std::size_t n = span_prefix(*spans, run); n < spans->pending()) {
                        model::Event front = take_front(*spans, n);
                        emit(front);
                        break;
                    }
                } else if (auto* samples = std::get_if<model::SampleRun>(&e)) {
                    if (std::size_t n = sample_prefix(*samples, run); n < samples->pending()) {
                        model::Event front = take_front(*samples, n);
                        emit(front);
                        break;
                    }
                }
                emit(e);
                ++q.head;
            } while (!q.empty() && q.front_ts() < run.before && q.front_ts() <= run.upto);
        }
        drop_released();
    }

    [[nodiscard]] std::size_t pending() const;

  private:
    // The events one queue may emit next: while ts < before and ts <= upto.
    struct Run {
        std::size_t queue = 0;
        model::Nanos before = 0;
        model::Nanos upto = 0;
    };
    [[nodiscard]] model::Nanos release_limit(bool everything) const;
    // How many of a run's items from `first` on (at least that one) are within `run`'s bounds.
    template <typename Items>
    static std::size_t prefix_within(const Items& items, std::size_t first, const Run& run);
    // How many of a SpanRun's pending items (at least its first) the run may emit.
    static std::size_t span_prefix(const model::SpanRun& spans, const Run& run);
    // The first `n` pending items as a SpanRun of their own; `spans` keeps the rest.
    static model::Event take_front(model::SpanRun& spans, std::size_t n);
    // The same for a SampleRun's samples.
    static std::size_t sample_prefix(const model::SampleRun& samples, const Run& run);
    static model::Event take_front(model::SampleRun& samples, std::size_t n);
    bool next_run(model::Nanos limit, Run& run) const;
    void drop_released();

    struct Queue {
        std::vector<model::Event> events;  // [head, end) are pending
        std::size_t head = 0;
        model::Nanos watermark = 0;
        bool finished = false;
        [[nodiscard]] bool empty() const { return head == events.size(); }
        [[nodiscard]] model::Nanos front_ts() const { return model::timestamp_of(events[head]); }
    };
    std::vector<Queue> queues_;
};

}  // namespace apcgate::daemon
