// The mapped events on their way from the reader thread to poll(): a queue of whole batches
// rather than of single events. The reader hands over what one drain mapped as one vector, and
// poll() takes a batch that fits by swapping it with the engine's empty vector, which the engine
// hands on to the merger the same way: an event is moved once from where the mapper put it
// until the encoder reads it, and no allocation is made per event. (A deque of events moved
// each one in and out, and allocated a node for every few: at 20 k switches a second the
// reader's take() was the daemon's largest user-space cost.) The vectors that come back empty
// are kept, up to kSpares, for the reader's next batches, so their capacity is reused.
// Not thread-safe: PerfReader holds its mutex around every call.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

class EventBatches {
  public:
    static constexpr std::size_t kSpares = 2;

    // Queues what `batch` holds (nothing when it is empty); `batch` is left empty, with the
    // capacity of a spare when there is one.
    void push(std::vector<model::Event>& batch);
    // Moves up to `max` events, oldest first, to the end of `out`; returns how many.
    std::size_t take(std::vector<model::Event>& out, std::size_t max);
    // Moves every event to the end of `out`.
    void take_all(std::vector<model::Event>& out);

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    // The oldest queued event (the queue must not be empty).
    [[nodiscard]] const model::Event& front() const { return batches_.front()[head_]; }

  private:
    // Drops the front batch, keeping its vector as a spare.
    void pop_front();
    void recycle(std::vector<model::Event>&& v);

    std::deque<std::vector<model::Event>> batches_;  // none empty
    std::size_t head_ = 0;                           // events of the front batch already taken
    std::size_t size_ = 0;
    std::vector<std::vector<model::Event>> spares_;
};

}  // namespace apcgate::collectors::perf
