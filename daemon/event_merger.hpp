// Merges the event streams of several sources onto one timeline. Each source hands over events
// in non-decreasing timestamp order together with a watermark (no later event of that source will
// be older). Events are released in timestamp order up to the lowest watermark of the sources
// that are still running, so a slow source never lets a faster one get ahead of it; ties keep
// source order, then arrival order.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
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
    // or when `everything` is set at the end of a capture).
    void release(const std::function<void(model::Event&)>& emit, bool everything = false);

    [[nodiscard]] std::size_t pending() const;

private:
    struct Queue {
        std::deque<model::Event> events;
        model::Nanos watermark = 0;
        bool finished = false;
    };
    std::vector<Queue> queues_;
};

}  // namespace apcgate::daemon
