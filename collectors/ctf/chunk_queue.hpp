// The hand-over between the thread that decodes a trace (libbabeltrace2 and the mapper) and the
// capture engine's thread that polls: a queue of at most `depth` chunks. The decoder waits
// while it is full, so memory stays bounded; the poller waits while it is empty. close() wakes
// both for good (end of trace, or the capture stopping).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace apcgate::collectors::ctf {

template <typename T>
class ChunkQueue {
  public:
    explicit ChunkQueue(std::size_t depth) : depth_(depth) {}

    // False when the queue was closed (the chunk is dropped).
    bool push(T chunk) {
        std::unique_lock lock(mutex_);
        not_full_.wait(lock, [&] { return closed_ || items_.size() < depth_; });
        if (closed_) return false;
        items_.push_back(std::move(chunk));
        not_empty_.notify_one();
        return true;
    }
    // Without waiting: false when the queue is full or closed (the chunk is dropped).
    bool try_push(T chunk) {
        std::lock_guard lock(mutex_);
        if (closed_ || items_.size() >= depth_) return false;
        items_.push_back(std::move(chunk));
        not_empty_.notify_one();
        return true;
    }
    // Without waiting: nullopt when the queue is empty.
    std::optional<T> try_pop() {
        std::lock_guard lock(mutex_);
        if (items_.empty()) return std::nullopt;
        T chunk = std::move(items_.front());
        items_.pop_front();
        not_full_.notify_one();
        return chunk;
    }
    // The next chunk; nullopt once the queue is closed and drained.
    std::optional<T> pop() {
        std::unique_lock lock(mutex_);
        not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
        if (items_.empty()) return std::nullopt;
        T chunk = std::move(items_.front());
        items_.pop_front();
        not_full_.notify_one();
        return chunk;
    }
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        not_full_.notify_all();
        not_empty_.notify_all();
    }
    [[nodiscard]] bool closed() const {
        std::lock_guard lock(mutex_);
        return closed_;
    }

  private:
    const std::size_t depth_;
    mutable std::mutex mutex_;
    std::condition_variable not_full_, not_empty_;
    std::deque<T> items_;
    bool closed_ = false;
};

}  // namespace apcgate::collectors::ctf
