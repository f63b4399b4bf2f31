// The one APC encoder: model events in, APC frame bodies out (gator-protocol-v6.8.txt, "APC
// Frame Format"). It knows nothing about where events came from and nothing about where frames
// go: each finished frame body (code, optional core, messages; no length prefix) is handed to a
// FrameSink, which adds the length header of its transport (TCP response or .apc file).
//
// Frame rules it guarantees: the Summary message first and once; messages of one frame type and
// core stay in the order given (give events in timestamp order); a Block Counter frame starts
// with a timestamp (key 0); a key travels only in the frame kind its Delivery says; no frame body
// exceeds max_frame_bytes (annotation and external payloads are split as the seed allows, names
// are truncated, over-deep backtraces lose outer frames; all counted in encoder_statistics.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "protocol/apc/encoder_statistics.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::apc {

// Frame codes (the seed's "Frame Header").
enum class FrameType : std::int32_t {
    Summary = 1,
    Backtrace = 2,
    Name = 3,
    Counter = 4,
    BlockCounter = 5,
    Annotate = 6,
    SchedTrace = 7,
    Idle = 9,
    External = 10,
    Proc = 11,
    Activity = 13,
};
const char* to_string(FrameType t);
// Whether the frame header carries a core (Backtrace, Name, Block Counter, Sched Trace, Proc).
bool frame_has_core(FrameType t);

inline constexpr std::string_view kNewlineCanary = "1\n2\r\n3\r4\n\r5";

class FrameSink {
  public:
    virtual ~FrameSink() = default;
    // One complete frame body. Called only from Encoder::flush() (and when a frame fills up).
    virtual void frame(std::span<const std::uint8_t> body) = 0;
};

struct SummaryInfo {
    std::int64_t wallclock_ns = 0;        // realtime at the capture's zero (0: no system time)
    std::int64_t uptime_ns = 0;           // CLOCK_BOOTTIME at the capture's zero
    std::int64_t monotonic_delta_ns = 0;  // CLOCK_MONOTONIC_RAW at the zero
    std::vector<std::pair<std::string, std::string>> attributes;  // non-empty keys
};

struct EncoderOptions {
    std::size_t max_frame_bytes = std::size_t{256} * 1024;  // body size cap for every frame
};

// What the encoder counted: the table's statistics, plus the messages per model event kind
// (index = Event::index(); a SpanRun's items count as the Annotation events they stand for, a
// SampleRun's samples as the CounterSample and Backtrace events they stand for).
struct EncoderStats {
    EncoderStatistics counts;
    std::array<std::uint64_t, std::variant_size_v<model::Event>> messages{};
};

class Encoder {
  public:
    Encoder(const model::CaptureCounters& counters, FrameSink& sink, EncoderOptions options = {});

    // Must be called once, before any add(); writes the Summary frame (Summary message and the
    // given core names) and hands it to the sink at once.
    void summary(const SummaryInfo& info, std::span<const model::CoreName> cores = {});
    // Appends one event to the open frame of its kind (and core); frames that fill up are sent.
    void add(const model::Event& event);
    // Appends the first `n` pending samples of `run` (n <= run.pending()) exactly as add() of
    // the whole run would, without advancing the run: for a caller that puts other events
    // between a run's samples (the capture engine's event rate samples).
    void add(const model::SampleRun& run, std::size_t n);
    // Sends every open frame (at each live-rate tick and at the end of the capture).
    void flush();

    [[nodiscard]] const EncoderStats& stats() const { return stats_; }

  private:
    // Open frames, scratch buffers and the frame-filling logic live in encoder_impl.hpp so the
    // daemon's includes stay small. A function-pointer deleter lets Impl stay incomplete here
    // without declaring a destructor in the public part.
    struct Impl;
    friend struct Impl;
    static void destroy(Impl* impl);

    const model::CaptureCounters& counters_;
    FrameSink& sink_;
    EncoderOptions options_;
    EncoderStats stats_;
    bool summary_sent_ = false;
    std::unique_ptr<Impl, void (*)(Impl*)> impl_;
};

}  // namespace apcgate::apc
