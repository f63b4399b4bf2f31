// The CTF ingester's Source: one or more CTF trace directories (a parent directory stands for
// every trace below it, e.g. an LTTng session's kernel/ and ust/ traces) read through
// libbabeltrace2 and merged onto one timeline. open() probes the traces (counters to declare,
// time origin); every start() reads them afresh with a new graph.
//
// Decoding runs on a thread of its own while the capture engine encodes on the polling thread,
// so a conversion takes little longer than libbabeltrace2's decoding alone on two cores. The
// decoding thread has the larger share (libbabeltrace2 and the mapping), so the polling thread
// makes the annotation strings from the chunk's text buffer (deferred_texts.hpp). The reader
// hands over chunks of about kChunkEvents model
// events through a queue of kQueuedChunks, so memory stays bounded whatever the trace size; each
// chunk carries the report counts it adds, applied by the polling thread that owns the report.
#pragma once

#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "collectors/ctf/chunk_queue.hpp"
#include "collectors/ctf/event_mapper.hpp"
#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/trace_probe.hpp"
#include "collectors/ingest/ingest_source.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kChunkEvents = 65536;
inline constexpr std::size_t kChunkSlack = 4096;
inline constexpr std::size_t kQueuedChunks = 2;
inline constexpr std::size_t kChunkTextBytes = 4 << 20;  // grows past it for long texts

class CtfSource final : public ingest::IngestSource {
  public:
    static Result<std::unique_ptr<CtfSource>> open(const std::filesystem::path& input);
    ~CtfSource() override;

    [[nodiscard]] std::string_view name() const override { return "ctf"; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;
    [[nodiscard]] model::Nanos time_origin() const override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return report_; }

  private:
    struct Chunk {
        std::vector<model::Event> events;
        DeferredTexts texts;                     // the annotation texts of `events`
        ingest::IngestReport counts{"ctf", ""};  // what this chunk adds to the report
        model::Nanos watermark = 0;
        std::int64_t clock_ns = 0;  // the trace's clock reached, for progress
        bool finished = false;
    };

    CtfSource(std::filesystem::path input, ProbeResult probe);
    void read_trace();   // the reader thread
    void end_reading();  // stops and joins the reader thread
    void apply(const ingest::IngestReport& counts);
    void update_progress(std::int64_t clock_ns, bool finished);

    std::filesystem::path input_;
    ProbeResult probe_;
    ingest::IngestReport report_;
    model::Nanos zero_ = 0;
    model::Nanos watermark_ = 0;
    bool finished_ = true;
    // Used by the reader thread alone while it runs. The mapper outlives the graph that calls it.
    ingest::IngestReport reader_counts_;
    std::unique_ptr<EventMapper> mapper_;
    std::unique_ptr<TraceGraph> graph_;
    HeldMessages held_;  // the probe's messages, for the first capture (released before graph_)
    std::unique_ptr<ChunkQueue<Chunk>> queue_;
    // Chunks the poller has emptied, back to the reader: their buffers are reused rather than
    // allocated (and page-faulted in) afresh for every chunk.
    std::unique_ptr<ChunkQueue<Chunk>> spare_;
    std::thread reader_;
};

}  // namespace apcgate::collectors::ctf
