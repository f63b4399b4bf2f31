// The thread-safe hand-over between the annotation I/O thread and the capture engine. The I/O
// thread appends events stamped at arrival (CLOCK_MONOTONIC_RAW minus the capture's zero, never
// decreasing); the engine's poll takes them all at once with a watermark no later event can be
// older than. Bytes waiting here are counted, so the I/O thread can stop reading when the engine
// falls behind instead of growing memory.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::annotate {

class Handover {
  public:
    // A capture begins: timestamps count from `zero_ns` (CLOCK_MONOTONIC_RAW) from now on.
    void begin(std::int64_t zero_ns);

    // I/O thread. Data is appended to the previous chunk of the same id when that is the last
    // event, so a client's small writes do not become one event each.
    void push_data(std::int32_t id, std::span<const std::uint8_t> bytes);
    void push_disconnect(std::int32_t id);
    void push_annotation(std::int32_t tid, model::AnnotationBody body, std::size_t bytes);
    // Bytes (plus a per-event overhead) waiting for the engine.
    [[nodiscard]] std::size_t pending_bytes() const;
    // How many times the engine took the queue (the I/O thread resumes reading on a change).
    [[nodiscard]] std::uint64_t takes() const;

    // Engine: moves every waiting event to `out`; returns the watermark.
    model::Nanos take(std::vector<model::Event>& out);

    static constexpr std::size_t kEventOverhead = 64;
    static constexpr std::size_t kMaxChunk =
        std::size_t{64} * 1024;  // coalesce data up to this size

  private:
    model::Nanos stamp();  // with mu_ held

    mutable std::mutex mu_;
    std::vector<model::Event> events_;
    std::size_t pending_ = 0;
    std::uint64_t takes_ = 0;
    std::int64_t zero_ = 0;
    model::Nanos last_ = 0;
};

}  // namespace apcgate::collectors::annotate
