// Merges the threads' event streams into one in time order, as the capture engine needs them:
// events go out by (ns, thread index), so equal times go to the lower thread index, and a thread
// being read goes on through its equal times unless a lower-indexed thread has the same time.
// Right after a thread's last event the merger says so, so that the mapper can close what that
// thread left open at the thread's own last time.
//
// Threads of a real log interleave every event or two (the 4-thread workload log switches
// thread at 7 events in 10), so the merge cannot lean on long runs of one thread, and a heap's
// sifting and mispredicted branches cost more than the decoding. Up to kScanLimit live threads
// (every real log we have seen) it merges a chunk at a time, in place: the live threads sit in
// small flat arrays in index order with their next event and its time. Up to four threads,
// each event is picked by a two-level tree of comparisons on registers (no state in memory
// between picks); five to sixteen, a linear scan picks a thread and its run is taken while it
// is earlier than every other thread's next event. The chunk is a list of pointers into the
// threads' batches, so it ends when a thread's batch runs dry: that batch is refilled (and the
// thread's end told) only once the chunk has been handed out, and next() is a plain read of the
// list. With more threads a heap merges one event at a time, and hands over to the chunks once
// enough threads have ended.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "collectors/xray/thread_cursor.hpp"

namespace apcgate::collectors::xray {

class TimelineMerger {
  public:
    enum class Step : std::uint8_t { Event, ThreadEnd, Done };

    // Threads beyond this many live ones are merged with a heap.
    static constexpr std::size_t kScanLimit = 16;
    // Steps merged ahead at most (16 bytes each).
    static constexpr std::size_t kChunk = 1024;

    explicit TimelineMerger(std::vector<std::unique_ptr<ThreadCursor>>& cursors);

    // Event: `event` of `thread` (valid until the next call). ThreadEnd: `thread` has no more.
    Step next(std::uint32_t& thread, const CallEvent*& event) {
        if (pos_ < size_) {
            const Merged& m = chunk_[pos_++];
            thread = m.thread;
            event = m.event;
            return m.step;
        }
        return next_slow(thread, event);
    }

    // One step: an Event (`event` of `thread`) or a ThreadEnd (`thread` has no more).
    struct Merged {
        const CallEvent* event;
        std::uint32_t thread;
        Step step;
    };

    // Up to `max` (>= 1) next steps at once, in order; none when the merge is done. Their events
    // stay valid until the next call of steps() or next(). A caller that takes the steps this
    // way keeps its loop over them tight, with no call and no merger state per event.
    std::span<const Merged> steps(std::size_t max) {
        if (pos_ == size_ && !fill()) return {};
        const std::size_t n = std::min(max, size_ - pos_);
        const std::span<const Merged> out(chunk_.data() + pos_, n);
        pos_ += n;
        return out;
    }

  private:
    using Key = std::pair<model::Nanos, std::uint32_t>;
    static constexpr std::size_t kNone = kScanLimit;

    bool fill();  // merges the next chunk (heap mode: the next step); false when done

    Step next_slow(std::uint32_t& thread, const CallEvent*& event);
    void merge_chunk();
    void merge_four();
    void refill_dry();
    void add_slot(const Key& k);
    void remove_slot(std::size_t slot);
    void to_scan();
    Step from_heap(std::uint32_t& thread, const CallEvent*& event);

    std::vector<std::unique_ptr<ThreadCursor>>& cursors_;

    // The merged steps not yet handed out.
    std::array<Merged, kChunk> chunk_{};
    std::size_t pos_ = 0;
    std::size_t size_ = 0;

    // Scan mode: the live threads in index order, each with its ready events and next time.
    std::array<model::Nanos, kScanLimit> ns_{};
    std::array<const CallEvent*, kScanLimit> head_{};
    std::array<const CallEvent*, kScanLimit> end_{};
    std::array<ThreadCursor*, kScanLimit> cursor_{};
    std::array<std::uint32_t, kScanLimit> thread_{};
    std::size_t live_ = 0;
    std::size_t dry_ = kNone;  // the slot whose batch ran dry in the last chunk

    // Heap mode (more than kScanLimit live threads): the other threads' (time, index).
    bool scan_ = true;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap_;
    ThreadCursor* heap_current_ = nullptr;  // its last event was handed out and must be popped
    Key heap_limit_{0, 0};                  // the heap's top while heap_current_ is read
};

}  // namespace apcgate::collectors::xray
