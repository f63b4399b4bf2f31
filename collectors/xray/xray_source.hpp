// An XRay log as a capture source: it maps the log, reads it with XrayReader and hands the
// calls to SpanMapper and CallRateCounters. Times are the log's TSCs in ns minus the capture's
// zero (the earliest time_origin() of all inputs), so several logs of one run share one timeline.
//
// Decoding and mapping run on a thread of their own, beside the engine's merging, encoding and
// writing (each is about half the work of a conversion): the thread maps at most kEventsPerBatch
// calls into a batch and hands it over through an ingest::BoundedQueue of kQueuedBatches, so memory
// stays bounded however large the log; poll() takes one batch. The thread owns the reader, the
// mapper and the counters while it runs; its statistics and problems travel with each batch and are
// added to the report by poll(), on the engine's thread, which alone touches the report.
// stop() (the capture ended before the log did) asks the thread to end after its next batch,
// takes what it had decoded and closes the calls left open at the last event's time.
//
// A process confined to one CPU (a single-core board, `taskset -c 0`) gains nothing from the
// thread and pays for handing every batch over (a switch per batch, the batch fetched again
// from memory): there poll() decodes its batch itself (XrayOptions::decoding_thread).
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "collectors/ingest/bounded_queue.hpp"
#include "collectors/ingest/ingest_source.hpp"
#include "collectors/xray/call_rate_counters.hpp"
#include "collectors/xray/function_names.hpp"
#include "collectors/xray/span_mapper.hpp"
#include "collectors/xray/xray_options.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "protocol/wire/mapped_file.hpp"

namespace apcgate::collectors::xray {

class XraySource final : public ingest::IngestSource {
  public:
    static constexpr std::size_t kEventsPerBatch = 16384;
    static constexpr std::size_t kQueuedBatches = 4;

    // Maps and indexes the log (and reads the binary's names): what declare() needs.
    static Result<std::unique_ptr<XraySource>> open(const XrayOptions& options);
    ~XraySource() override;

    [[nodiscard]] std::string_view name() const override { return "xray"; }
    [[nodiscard]] model::Nanos time_origin() const override;
    // The log's TSC; FDR logs relate it to CLOCK_MONOTONIC (XrayReader::to_monotonic). Logs
    // share a domain (keep their distances exactly) only when their TSCs are converted at one
    // rate: two rates, even a ppm apart, put the same TSC from boot up to seconds apart, so logs
    // whose clock stamps measured their rates are each placed through CLOCK_MONOTONIC instead.
    [[nodiscard]] ingest::InputClock clock() const override {
        return {"xray@" + std::to_string(tsc_hz_) + "Hz", to_monotonic_, "XRay TSC"};
    }
    Status refresh() override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return *report_; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

  private:
    // What the decoding thread hands over: events in time order and what was counted meanwhile.
    struct Batch {
        std::vector<model::Event> events;
        Stats stats;
        std::unique_ptr<ingest::IngestReport> problems;  // null: none
        model::Nanos watermark = 0;
        std::uint64_t bytes_done = 0;
        bool finished = false;
        bool cut = false;  // the last batch: the file was cut short (the log was not read whole)
    };

    explicit XraySource(XrayOptions options) : options_(std::move(options)) {}
    // Maps the log afresh and reads its header and index into a fresh report.
    Status load();
    // The decoding thread's loop; one batch of it (in an emptied vector handed back by take(),
    // when there is one); and the mapping of that batch (true when the log is done).
    void decode();
    Batch next_batch();
    bool map_batch(std::vector<model::Event>& out);
    // Adds a batch's counts to the report and moves its events to `out`.
    void take(Batch& batch, std::vector<model::Event>& out);
    // Ends the decoding thread (if any) without taking its batches.
    void end_decoding();
    // A problem when calls named functions past the binary's map (FunctionNames::OutsideMap).
    void report_names_outside_map();
    // One problem with their count when calls were nested deeper than the mapper shows.
    void report_depth_limit();
    // Once the log is read: a note with their count when buffers had LLVM 14's short extents
    // (fdr_block_decoder.hpp): the producer's doing, not damage.
    void note_short_buffers();

    XrayOptions options_;
    std::string program_;     // the binary's file name, for thread labels
    std::string names_note_;  // FunctionNames::origin_note(), for every report
    FunctionNames names_;
    std::unique_ptr<ingest::IngestReport> report_;
    wire::MappedFile input_;  // the log, mapped: the threads read it in place
    std::unique_ptr<XrayReader> reader_;
    bool unread_ = false;  // no capture has read reader_ yet
    std::optional<model::Nanos> origin_;
    std::optional<model::Nanos> to_monotonic_;
    std::uint64_t tsc_hz_ = 0;
    std::unique_ptr<SpanMapper> mapper_;
    CallRateCounters rates_;
    model::Nanos zero_ = 0;
    model::Nanos watermark_ = 0;  // of the batches taken (engine's thread)
    bool finished_ = false;

    // The decoding side: the thread's, or poll()'s when `inline_`. `decoded_` is where the
    // decoders report problems; each batch takes what it holds.
    bool inline_ = false;
    std::unique_ptr<ingest::IngestReport> decoded_;
    model::Nanos decode_watermark_ = 0;
    std::unique_ptr<ingest::BoundedQueue<Batch>> full_;
    std::unique_ptr<ingest::BoundedQueue<std::vector<model::Event>>>
        spare_;  // emptied vectors, reused
    std::atomic<bool> stop_requested_{false};
    std::thread decoder_;
};

}  // namespace apcgate::collectors::xray
