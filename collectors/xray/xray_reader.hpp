// The XRay log reader, without any Streamline mapping: header, first pass (index), per-thread
// decoding and the time-ordered merge, over bytes the caller has mapped. The source maps its
// events to the model; tests compare them with llvm-xray; the benchmark times it alone.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/thread_cursor.hpp"
#include "collectors/xray/timeline_merger.hpp"

namespace apcgate::collectors::xray {

class XrayReader {
  public:
    using Step = TimelineMerger::Step;

    // Reads the header and indexes `data` (a whole log, which must outlive the reader). Fails
    // only when the header is no XRay header; every later problem goes to `report`.
    static Result<std::unique_ptr<XrayReader>> open(std::span<const std::uint8_t> data,
                                                    const std::string& input,
                                                    ingest::IngestReport& report);

    // The next steps in time order, several at once; see TimelineMerger::steps.
    std::span<const TimelineMerger::Merged> steps(std::size_t max) { return merger_->steps(max); }
    // The next event in time order; see TimelineMerger::next.
    Step next(std::uint32_t& thread, const CallEvent*& event) {
        return merger_->next(thread, event);
    }
    [[nodiscard]] std::span<const std::uint64_t> args(std::uint32_t thread,
                                                      const CallEvent& e) const {
        return cursors_[thread]->args(e);
    }
    [[nodiscard]] std::span<const std::uint8_t> payload(const CallEvent& e) const {
        return ctx_.data.subspan(e.payload_offset, e.payload_size);
    }

    [[nodiscard]] const FileHeader& header() const { return ctx_.header; }
    [[nodiscard]] const LogIndex& index() const { return ctx_.index; }
    [[nodiscard]] const ThreadInfo& thread(std::uint32_t t) const { return ctx_.index.threads[t]; }
    // The earliest event's time on the log's ns timeline; nullopt for a log without events.
    [[nodiscard]] std::optional<model::Nanos> origin_ns() const;
    [[nodiscard]] const TscClock& clock() const { return ctx_.clock; }
    // The TSC rate the log's times are converted with (tsc_rate.hpp), in Hz.
    [[nodiscard]] std::uint64_t tsc_hz() const { return tsc_hz_; }
    // What to add to the log's ns to get the writer's CLOCK_MONOTONIC ns: the median, over the
    // FDR buffers' WallClockTime stamps, of the stamp minus its buffer's time base (the runtime
    // reads the TSC of the event that opens a buffer just before the wall clock, and keeps
    // microseconds: each stamp is good to a microsecond or two; the median keeps an odd one, or a
    // cycle frequency a little off over a long run, from moving the whole log). Nullopt for
    // basic-mode logs and logs without stamps.
    [[nodiscard]] std::optional<model::Nanos> to_monotonic() const;
    [[nodiscard]] std::uint64_t bytes_done() const { return ctx_.bytes_done; }
    Stats& stats() { return ctx_.stats; }

    XrayReader(const XrayReader&) = delete;
    XrayReader& operator=(const XrayReader&) = delete;

  private:
    XrayReader() = default;

    DecodeContext ctx_;
    std::uint64_t tsc_hz_ = 0;
    std::vector<std::unique_ptr<ThreadCursor>> cursors_;
    std::unique_ptr<TimelineMerger> merger_;
};

// True when `head` (a file's first bytes) starts with an XRay header.
bool looks_like_xray(std::span<const std::uint8_t> head);

}  // namespace apcgate::collectors::xray
