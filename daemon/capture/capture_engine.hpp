// One capture, independent of transport and of time keeping: starts the sources, polls each at
// its own period, merges their events onto one timeline, encodes them with the one APC encoder
// and hands the frames to a sink. The live driver (LiveCapture) calls it from timers; `convert`
// calls it in a loop. Timestamps are capture-timeline ns (0 = the capture's zero).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "collectors/source.hpp"
#include "daemon/capture/annotation_ids.hpp"
#include "daemon/capture/capture_sink.hpp"
#include "daemon/capture/event_merger.hpp"
#include "daemon/capture/event_rate_counter.hpp"
#include "daemon/capture/statistics_of.hpp"
#include "protocol/apc/encoder.hpp"
#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

struct CapturePlan {
    model::CaptureSettings settings;
    model::CaptureCounters counters;
    std::vector<collectors::Source*> sources;  // not owned; outlive the engine
    std::vector<model::CoreName> cores;
    apc::SummaryInfo summary;
    apc::EncoderOptions encoder;
    std::int64_t zero_monotonic_ns = 0;
    // Per source, in `sources` order: its own zero, for trace inputs whose clocks differ
    // (collectors/ingest/timeline_placement.hpp). Empty: every source uses zero_monotonic_ns.
    std::vector<std::int64_t> source_zero_ns;
};

struct CaptureTotals {
    std::uint64_t events = 0;
    std::uint64_t frames = 0;
    std::uint64_t bytes = 0;
    std::vector<std::string> failed_sources;  // "name: reason"
};

class CaptureEngine {
  public:
    CaptureEngine(CapturePlan plan, CaptureSink& sink);

    // Starts every source and sends the Summary. Fails only when no source could start.
    Status start();
    // Polls the live sources whose period has come (recorded ones have none: poll_behind()).
    void poll_due(model::Nanos now);
    // Polls the unfinished recorded sources (trace inputs) the merge is waiting for: those at
    // the lowest watermark. An input whose events lie later than another's is not read ahead
    // of it, so when inputs cover different times (two runs of a program, minutes apart) at
    // most one poll's events per input wait in the merger, not the whole later input.
    void poll_behind(model::Nanos now);
    // Encodes what every source has vouched for up to `now` and sends the open frames.
    void flush(model::Nanos now);
    // Encodes what every source has vouched for, for a conversion (no live rate to keep):
    // frames go to the sink as they fill, and the open ones (streams that fill slowly:
    // counters, names) each time kSendOpenFrames more bytes were encoded, rather than after
    // every poll. Full frames are fewer, larger writes; no stream waits for the file's end.
    void encode_ready();
    static constexpr std::uint64_t kSendOpenFrames = 4 << 20;
    // Stops the sources, encodes everything left, sends it and tells the sink the capture ended.
    void finish(model::Nanos now);

    [[nodiscard]] model::Nanos next_poll() const;  // earliest time a live source is due
    [[nodiscard]] bool sources_finished() const;   // every source ran out (ingested inputs)
    [[nodiscard]] bool recorded_running() const;   // a recorded source has more to give
    [[nodiscard]] bool buffer_full() const;        // a buffered mode's size was reached
    [[nodiscard]] const apc::EncoderStats& encoder_stats() const { return encoder_.stats(); }
    [[nodiscard]] CaptureTotals totals() const;
    // What each source and the encoder counted (after finish(): the whole capture's), in plan
    // order, the encoder last. Sources that count nothing (trace inputs keep theirs in their
    // IngestReport) are left out.
    [[nodiscard]] std::vector<StatisticsOf> statistics() const;
    [[nodiscard]] const CapturePlan& plan() const { return plan_; }
    [[nodiscard]] model::Nanos flush_period() const { return flush_period_; }
    [[nodiscard]] CaptureSink& sink() { return sink_; }

  private:
    struct Running {
        collectors::Source* source;
        model::Nanos period;  // live sources
        bool recorded = false;
        model::Nanos next_due = 0;
        model::Nanos watermark = std::numeric_limits<model::Nanos>::min();  // none polled yet
        bool finished = false;
    };
    void poll_one(std::size_t index, model::Nanos now);
    void count(const std::vector<model::Event>& events);  // a SpanRun counts its annotations
    // Hands what source `index` made to the merger, its annotation ids made the capture's.
    void push(std::size_t index, model::Nanos watermark, bool finished);
    // Encodes one merged event, and the capture's event-rate samples it completes.
    void encode(model::Event& e);

    CapturePlan plan_;
    CaptureSink& sink_;
    apc::Encoder encoder_;
    EventMerger merger_;
    AnnotationIds annotation_ids_;
    EventRateCounter event_rate_;
    std::vector<model::Event> rate_samples_;
    std::vector<Running> running_;
    std::vector<model::Event> scratch_;
    std::vector<std::string> failed_;
    model::Nanos flush_period_;
    std::uint64_t events_ = 0;
    std::uint64_t open_frames_sent_at_ = 0;  // encoded bytes when encode_ready() last sent them
    bool finished_ = false;
};

}  // namespace apcgate::daemon
