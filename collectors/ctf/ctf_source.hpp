// The CTF ingester's Source: one or more CTF trace directories (a parent directory stands for
// every trace below it, e.g. an LTTng session's kernel/ and ust/ traces) read through
// libbabeltrace2 and merged onto one timeline. open() probes the traces (counters to declare,
// time origin); every start() reads them afresh.
//
// Every libbabeltrace2 call runs in a worker process (ctf_worker.hpp; libbabeltrace2 2.0.4
// hangs or crashes on some malformed traces): one short worker probes at open(), one per start()
// decodes and maps the events and writes them as frames (worker_frames.hpp). The source's reader
// thread decodes the frames into chunks of about kChunkEvents model events and hands them to the
// polling thread through a queue of kQueuedChunks, so memory stays bounded whatever the trace
// size; each chunk carries the report counts it adds, applied by the polling thread that owns
// the report. When the worker dies, hangs or writes garbage, the events it sent are kept and the
// report says how reading stopped. On two cores the worker (libbabeltrace2 and the mapping) is
// the critical path, so the worker's mapper writes the annotation texts into one buffer per
// chunk (deferred_texts.hpp), the chunk's frame carries each in its event's place, and the
// reader thread reads stretches of them straight into span runs: no heap string per annotation
// on either side.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "collectors/ctf/open_spans.hpp"
#include "collectors/ctf/trace_probe.hpp"
#include "collectors/ctf/worker_client.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "collectors/ingest/bounded_queue.hpp"
#include "collectors/ingest/ingest_source.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kQueuedChunks = 2;

class CtfSource final : public ingest::IngestSource {
  public:
    // `self_exe` is the apcgate executable, run as the worker.
    static Result<std::unique_ptr<CtfSource>> open(const std::filesystem::path& input,
                                                   const std::filesystem::path& self_exe);
    ~CtfSource() override;

    [[nodiscard]] std::string_view name() const override { return "ctf"; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;
    [[nodiscard]] model::Nanos time_origin() const override;
    // The traces' clock as the probe found it (trace_probe.hpp: decide_clock()).
    [[nodiscard]] ingest::InputClock clock() const override;
    // Probes the traces again when any of their files changed since the last probe (a session
    // rotated or rewritten between captures).
    Status refresh() override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return report_; }

  private:
    CtfSource(std::filesystem::path input, std::filesystem::path self_exe, ProbeResult probe,
              std::uint64_t fingerprint);
    void read_frames();  // the reader thread
    void end_with(Error e, Chunk chunk);
    void end_reading();  // stops the worker and joins the reader thread
    void apply(const ingest::IngestReport& counts);
    void update_progress(std::int64_t clock_ns, bool finished);
    [[nodiscard]] std::string doing() const;

    std::filesystem::path input_;
    std::filesystem::path self_exe_;
    ProbeResult probe_;
    std::uint64_t fingerprint_ = 0;  // of the files probe_ describes (tree_fingerprint())
    ingest::IngestReport report_;
    model::Nanos zero_ = 0;
    model::Nanos watermark_ = 0;
    bool finished_ = true;
    OpenSpans spans_;  // of the events handed out, ended when the worker could not
    // The capture's key of each counter the worker may fill: its key k is keys_[k - 3].
    std::vector<model::CounterKey> keys_;
    std::unique_ptr<WorkerClient> worker_;
    // Used by the reader thread alone while it runs.
    FrameBytes body_;
    std::atomic<std::uint64_t> events_read_{0};  // trace events, for the errors
    std::unique_ptr<ingest::BoundedQueue<Chunk>> queue_;
    // Chunks the poller has emptied, back to the reader: their buffers are reused rather than
    // allocated (and page-faulted in) afresh for every chunk.
    std::unique_ptr<ingest::BoundedQueue<Chunk>> spare_;
    std::thread reader_;
};

}  // namespace apcgate::collectors::ctf
