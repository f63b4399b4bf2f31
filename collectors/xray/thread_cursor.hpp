// One thread's events in time order: it reads the thread's blocks one after another (FDR
// buffers or basic-mode runs), decoding a batch ahead. The decoders stamp every event on the
// thread's clock (ThreadClock: the log's ns timeline, never going backwards within the thread).
// The batch starts small and doubles up to kMaxBatch, so many short threads cost little memory.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <variant>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/basic_log.hpp"
#include "collectors/xray/call_event.hpp"
#include "collectors/xray/fdr_block_decoder.hpp"
#include "collectors/xray/log_index.hpp"
#include "collectors/xray/tsc_clock.hpp"
#include "collectors/xray/xray_header.hpp"

namespace apcgate::collectors::xray {

// What every thread's decoding shares; owned by XrayReader, which outlives the cursors.
struct DecodeContext {
    std::span<const std::uint8_t> data;
    FileHeader header;
    FdrFormat fdr;
    std::string input;
    LogIndex index;
    TscClock clock;
    Stats stats;
    ingest::IngestReport* report = nullptr;
    std::uint64_t bytes_done = 0;  // of blocks fully read
};

class ThreadCursor {
  public:
    static constexpr std::size_t kFirstBatch = 16;
    static constexpr std::size_t kMaxBatch = 1024;

    ThreadCursor(DecodeContext& ctx, std::uint32_t thread)
        : ctx_(ctx), thread_(thread), clock_(ctx.clock), expander_(clock_) {}
    ThreadCursor(const ThreadCursor&) = delete;
    ThreadCursor& operator=(const ThreadCursor&) = delete;

    // The next event (decoding ahead as needed); nullptr when the thread has no more.
    const CallEvent* peek() {
        if (head_ < batch_.size()) return &batch_[head_];
        return refill() ? &batch_[head_] : nullptr;
    }
    void pop() { ++head_; }
    // The events decoded and not yet taken (empty when a refill is due; peek() does it). They
    // stay where they are until the next refill, so a merger may hand out pointers to them.
    [[nodiscard]] const CallEvent* ready_begin() { return batch_.begin() + head_; }
    [[nodiscard]] const CallEvent* ready_end() { return batch_.end(); }
    // Takes the ready events up to `p` (a position within them).
    void take_until(const CallEvent* p) { head_ = static_cast<std::size_t>(p - batch_.begin()); }
    [[nodiscard]] std::span<const std::uint64_t> args(const CallEvent& e) const {
        return batch_.args_of(e);
    }
    [[nodiscard]] std::uint32_t thread() const { return thread_; }

  private:
    bool refill();

    DecodeContext& ctx_;
    std::uint32_t thread_;
    std::size_t next_block_ = 0;  // position in the thread's block list
    std::variant<std::monostate, FdrBlockDecoder, BasicBlockDecoder> decoder_;
    ThreadClock clock_;     // the thread's times, never going back
    FdrExpander expander_;  // FDR state that carries from one buffer of the thread to the next
    CallBatch batch_;
    std::size_t head_ = 0;
    std::size_t capacity_ = kFirstBatch;
};

}  // namespace apcgate::collectors::xray
