// What the readers of both log modes expand records into: one thread's calls, exits and events
// with absolute TSCs (llvm-xray's XRayRecord, without allocations). Arguments and event payloads
// are not copied: arguments sit in the batch, payloads stay in the mapped input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::xray {

enum class CallKind : std::uint8_t { Enter, EnterArgs, Exit, TailExit, CustomEvent, TypedEvent };

inline bool is_entry(CallKind k) {
    return k == CallKind::Enter || k == CallKind::EnterArgs;
}
inline bool is_exit(CallKind k) {
    return k == CallKind::Exit || k == CallKind::TailExit;
}

// Trivially constructible on purpose: batches are allocated without initialising them, and the
// decoders write every field. Value-initialise (`CallEvent e{}`) elsewhere.
struct CallEvent {
    std::uint64_t tsc;             // absolute, as the log has it
    model::Nanos ns;               // tsc on the input's ns timeline, never decreasing per thread
    std::uint64_t payload_offset;  // custom/typed events: payload position in the input
    std::uint32_t payload_size;
    std::uint32_t function;   // function id; typed events: the event type
    std::uint32_t first_arg;  // index in CallBatch::args
    std::uint16_t arg_count;
    std::uint16_t cpu;
    CallKind kind;
};

// No event is stamped this late (TscClock saturates far below): the time of the end marker a
// thread's batch carries after its last event, so a merge can read one past the end unchecked.
inline constexpr model::Nanos kEndNs = std::numeric_limits<model::Nanos>::max();

// A thread's next events, decoded ahead in one go so the decode loops stay tight: a buffer that
// grows but is never cleared element by element (std::vector's push_back and value
// initialisation cost more than decoding an 8-byte record).
class CallBatch {
  public:
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    CallEvent& operator[](std::size_t i) { return data_[i]; }
    const CallEvent& operator[](std::size_t i) const { return data_[i]; }
    CallEvent& back() { return data_[size_ - 1]; }
    CallEvent* begin() { return data_.get(); }
    CallEvent* end() { return data_.get() + size_; }

    void push(const CallEvent& e) {
        *tail(1) = e;
        ++size_;
    }
    // Room for `n` more events after the last one; the caller fills k <= n and commits them.
    CallEvent* tail(std::size_t n) {
        if (size_ + n > capacity_) grow(size_ + n);
        return data_.get() + size_;
    }
    void commit(std::size_t k) { size_ += k; }
    void clear() {
        size_ = 0;
        args.clear();
    }

    [[nodiscard]] std::span<const std::uint64_t> args_of(const CallEvent& e) const {
        return std::span<const std::uint64_t>(args).subspan(e.first_arg, e.arg_count);
    }

    std::vector<std::uint64_t> args;

  private:
    void grow(std::size_t need) {
        const std::size_t cap = std::max(need, capacity_ * 2);
        auto bigger = std::make_unique_for_overwrite<CallEvent[]>(cap);
        std::copy(data_.get(), data_.get() + size_, bigger.get());
        data_ = std::move(bigger);
        capacity_ = cap;
    }

    std::unique_ptr<CallEvent[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

// A call logs at most this many arguments (the runtime logs one); more are counted, not kept.
inline constexpr std::uint16_t kMaxCallArgs = 16;

}  // namespace apcgate::collectors::xray
