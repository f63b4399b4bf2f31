// Merges the threads' event streams into one in time order (ties: the thread already being read,
// then the lower thread index), as the capture engine needs them: a k-way merge over a heap of
// the other threads' next times. While the current thread's next event is not later than every
// other thread's, it goes on without touching the heap, which is most of the time in a log of
// long-running threads. Right after a thread's last event the merger says so, so that the
// mapper can close what that thread left open at the thread's own last time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "collectors/xray/thread_cursor.hpp"

namespace apcgate::collectors::xray {

class TimelineMerger {
  public:
    enum class Step : std::uint8_t { Event, ThreadEnd, Done };

    explicit TimelineMerger(std::vector<std::unique_ptr<ThreadCursor>>& cursors);

    // Event: `event` of `thread` (valid until the next call). ThreadEnd: `thread` has no more.
    Step next(std::uint32_t& thread, const CallEvent*& event) {
        if (current_ != nullptr) {
            // The common case, inline: the current thread goes on while it is not later than
            // the earliest other thread (which cannot change while it is the one being read).
            current_->pop();
            const CallEvent* e = current_->peek();
            if (e != nullptr && (e->ns < limit_.first ||
                                 (e->ns == limit_.first && current_->thread() < limit_.second))) {
                thread = current_->thread();
                event = e;
                return Step::Event;
            }
        }
        return next_slow(thread, event);
    }

  private:
    using Key = std::pair<model::Nanos, std::uint32_t>;
    Step next_slow(std::uint32_t& thread, const CallEvent*& event);

    std::vector<std::unique_ptr<ThreadCursor>>& cursors_;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap_;
    ThreadCursor* current_ = nullptr;  // its last event was handed out and must be popped
    Key limit_{0, 0};                  // the heap's top while current_ is read
};

}  // namespace apcgate::collectors::xray
