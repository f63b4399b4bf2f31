// The hand-over between an ingester's decoding thread and the capture engine's thread that polls
// the source (the XRay and CTF sources decode beside the engine): at most `depth` batches in
// flight. The decoder waits while the queue is full, so memory stays bounded whatever the
// input's size; the poller waits while it is empty. close() wakes both for good: the decoder
// closes it after its last batch, the source when the capture stops or the source goes away.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace apcgate::collectors::ingest {

template <typename T>
class BoundedQueue {
  public:
    explicit BoundedQueue(std::size_t depth) : depth_(depth) {}

    // Waits for room; false when the queue is closed (the batch is dropped).
    bool push(T batch) {
        std::unique_lock lock(mutex_);
        not_full_.wait(lock, [&] { return closed_ || items_.size() < depth_; });
        if (closed_) return false;
        items_.push_back(std::move(batch));
        not_empty_.notify_one();
        return true;
    }
    // Without waiting: false when the queue is full or closed (the batch is dropped).
    bool try_push(T batch) {
        std::lock_guard lock(mutex_);
        if (closed_ || items_.size() >= depth_) return false;
        items_.push_back(std::move(batch));
        not_empty_.notify_one();
        return true;
    }
    // Waits for a batch; nullopt once the queue is closed and drained.
    std::optional<T> pop() {
        std::unique_lock lock(mutex_);
        not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
        return take();
    }
    // Without waiting: nullopt when the queue is empty.
    std::optional<T> try_pop() {
        std::lock_guard lock(mutex_);
        return take();
    }
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        not_full_.notify_all();
        not_empty_.notify_all();
    }

  private:
    std::optional<T> take() {  // with the lock held
        if (items_.empty()) return std::nullopt;
        std::optional<T> batch(std::move(items_.front()));
        items_.pop_front();
        not_full_.notify_one();
        return batch;
    }

    const std::size_t depth_;
    std::mutex mutex_;
    std::condition_variable not_full_, not_empty_;
    std::deque<T> items_;
    bool closed_ = false;
};

}  // namespace apcgate::collectors::ingest
