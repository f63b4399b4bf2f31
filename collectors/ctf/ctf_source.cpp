#include "collectors/ctf/ctf_source.hpp"

#include <algorithm>
#include <iterator>

#include "collectors/ctf/trace_discovery.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

Result<std::unique_ptr<CtfSource>> CtfSource::open(const fs::path& input) {
    auto traces = find_traces(input);
    if (!traces) return std::move(traces).take_error();
    auto probe = probe_traces(*traces);
    if (!probe) {
        Error e = std::move(probe).take_error();
        if (e.input.empty()) std::move(e).in_input(input.string());
        return e;
    }
    return std::unique_ptr<CtfSource>(new CtfSource(input, std::move(*probe)));
}

CtfSource::CtfSource(fs::path input, ProbeResult probe)
    : input_(std::move(input)),
      probe_(std::move(probe)),
      report_("ctf", input_.string()),
      reader_counts_("ctf", input_.string()) {
    for (const auto& t : probe_.traces) report_.bytes_total += stream_bytes(t);
    // Traces that could not be opened are reported once: the capture holds the others.
    for (const auto& e : probe_.rejected) report_.stopped(e);
}

CtfSource::~CtfSource() {
    end_reading();
}

void CtfSource::declare(model::CounterCatalog& catalog) {
    declare_counters(probe_.needs, catalog);
}

void CtfSource::describe(model::TargetInfo& target) {
    if (target.name.empty())
        target.name = !probe_.hostname.empty() ? probe_.hostname : input_.filename().string();
    target.cores = std::max(target.cores, probe_.cores);
    target.supports_live = false;
}

model::Nanos CtfSource::time_origin() const {
    return probe_.range ? probe_.range->begin : 0;
}

Status CtfSource::start(const CaptureContext& ctx) {
    end_reading();
    held_.release();
    graph_.reset();
    zero_ = ctx.zero_monotonic_ns;
    watermark_ = 0;
    reader_counts_ = ingest::IngestReport("ctf", input_.string());
    mapper_ = std::make_unique<EventMapper>(ctx.counters, zero_, reader_counts_);
    held_.release();
    if (probe_.graph) {
        // The first capture goes on from where the probe stopped.
        graph_ = std::move(probe_.graph);
        graph_->set_handler(*mapper_);
        held_ = std::move(probe_.held);
    } else {
        std::vector<Error> rejected;
        auto graph = TraceGraph::open(probe_.traces, *mapper_, rejected);
        for (auto& e : rejected) report_.stopped(std::move(e));
        if (!graph) {
            finished_ = true;
            Error e = std::move(graph).take_error();
            if (e.input.empty()) std::move(e).in_input(input_.string());
            return e;
        }
        graph_ = std::move(*graph);
    }
    finished_ = false;
    report_.bytes_done = 0;
    queue_ = std::make_unique<ChunkQueue<Chunk>>(kQueuedChunks);
    spare_ = std::make_unique<ChunkQueue<Chunk>>(kQueuedChunks);
    reader_ = std::thread([this] { read_trace(); });
    return {};
}

void CtfSource::read_trace() {
    bool first = true;
    for (bool done = false; !done;) {
        std::optional<Chunk> spare = spare_->try_pop();
        Chunk chunk = spare ? std::move(*spare) : Chunk{};
        // A chunk may pass kChunkEvents by one message's worth of events; growing it would move
        // every event already in it.
        chunk.events.reserve(kChunkEvents + kChunkSlack);
        chunk.texts.reserve(kChunkTextBytes);
        mapper_->set_output(&chunk.events, &chunk.texts);
        if (first) {
            mapper_->start_counters(std::max<model::Nanos>(0, time_origin() - zero_));
            held_.replay(*mapper_);
        }
        first = false;
        while (chunk.events.size() < kChunkEvents) {
            const TraceGraph::Step step = graph_->step();
            if (step == TraceGraph::Step::Messages) continue;
            if (step == TraceGraph::Step::Failed) {
                Error e = graph_->failure();
                if (e.input.empty()) std::move(e).in_input(input_.string());
                e.record = "CTF data stream";
                std::move(e).while_("decoding after " + std::to_string(mapper_->events()) +
                                    " events");
                reader_counts_.stopped(std::move(e));
            }
            mapper_->finish();
            done = true;
            break;
        }
        mapper_->flush_counts();
        mapper_->set_output(nullptr);
        chunk.counts = std::exchange(reader_counts_, ingest::IngestReport("ctf", input_.string()));
        chunk.watermark = mapper_->last_ts();
        chunk.clock_ns = mapper_->last_clock_ns();
        chunk.finished = done;
        if (!queue_->push(std::move(chunk))) return;  // the capture stopped
    }
}

PollResult CtfSource::poll(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !queue_) return {watermark_, true};
    std::optional<Chunk> chunk = queue_->pop();
    if (!chunk) {
        finished_ = true;
        return {watermark_, true};
    }
    chunk->texts.apply(chunk->events);
    out.insert(out.end(), std::make_move_iterator(chunk->events.begin()),
               std::make_move_iterator(chunk->events.end()));
    apply(chunk->counts);
    watermark_ = std::max(watermark_, chunk->watermark);
    update_progress(chunk->clock_ns, chunk->finished);
    if (chunk->finished) {
        finished_ = true;
        end_reading();
    } else {
        chunk->events.clear();
        chunk->texts.clear();
        chunk->counts = ingest::IngestReport("ctf", "");
        spare_->try_push(std::move(*chunk));
    }
    return {watermark_, finished_};
}

void CtfSource::stop(model::Nanos /*now*/, std::vector<model::Event>& out) {
    const bool cut_short = !finished_ && mapper_ != nullptr;
    end_reading();
    // A capture stopped before the trace's end still ends its open annotations.
    if (cut_short) {
        mapper_->set_output(&out);
        mapper_->finish();
        mapper_->set_output(nullptr);
    }
    held_.release();
    graph_.reset();
    finished_ = true;
}

void CtfSource::end_reading() {
    if (queue_) queue_->close();
    if (reader_.joinable()) reader_.join();
}

// The reader's counts for one chunk, added to the report (owned by the polling thread). The
// chunk's last problem is the one that stopped reading, when one did.
void CtfSource::apply(const ingest::IngestReport& counts) {
    for (const auto& [kind, s] : counts.kinds()) {
        if (s.read > 0) report_.read(kind, s.read);
        if (s.mapped > 0) report_.mapped(kind, s.mapped);
        if (s.skipped > 0) report_.skipped(kind, s.skipped);
    }
    const auto& problems = counts.problems();
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (counts.stop_reason() && i + 1 == problems.size())
            report_.stopped(problems[i]);
        else
            report_.bad_record(problems[i]);
    }
}

void CtfSource::update_progress(std::int64_t clock_ns, bool finished) {
    if (finished) {
        report_.bytes_done = report_.bytes_total;
        return;
    }
    // The graph does not say how far into the files it is; the time reached does, roughly.
    if (!probe_.range || probe_.range->end <= probe_.range->begin) return;
    const double span = static_cast<double>(probe_.range->end - probe_.range->begin);
    const double done = static_cast<double>(clock_ns - probe_.range->begin) / span;
    const auto bytes = static_cast<std::uint64_t>(std::clamp(done, 0.0, 1.0) *
                                                  static_cast<double>(report_.bytes_total));
    report_.bytes_done = std::max(report_.bytes_done, bytes);
}

}  // namespace apcgate::collectors::ctf
