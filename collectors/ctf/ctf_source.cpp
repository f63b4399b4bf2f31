#include "collectors/ctf/ctf_source.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "collectors/ctf/trace_discovery.hpp"
#include "collectors/ctf/trace_graph.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

namespace {

// The probe's worker: its probe frame, or libbabeltrace2's error (the traces cannot be opened).
// A worker that dies or hangs leaves `lost` set: the source then opens with no trace.
Result<ProbeResult> run_probe(const fs::path& input, const std::vector<fs::path>& traces,
                              const fs::path& self_exe, std::optional<Error>& lost) {
    std::vector<std::string> args{"probe"};
    for (const auto& t : traces) args.push_back(t.string());
    auto worker = WorkerClient::start(self_exe, args);
    if (!worker) return std::move(worker).take_error();
    const auto doing = [&] { return "opening " + input.string(); };
    FrameBytes body;
    auto kind = (*worker)->next(body, doing);
    if (!kind) {
        lost = std::move(kind).take_error();
        return ProbeResult{};
    }
    if (*kind == FrameKind::Error) {
        Error e;
        const Status st = decode_error(body, e);
        if (st) return e;
        lost = (*worker)->malformed(st.error(), doing());
        return ProbeResult{};
    }
    auto probe =
        *kind == FrameKind::Probe
            ? decode_probe(body)
            : Result<ProbeResult>(Error::at(ErrorKind::Internal, "a probe frame was expected"));
    if (!probe) {
        lost = (*worker)->malformed(probe.error(), doing());
        return ProbeResult{};
    }
    // The end frame and the worker's exit; what the probe found is kept whatever they are.
    if (auto end = (*worker)->next(body, doing); end) (void)(*worker)->finish(doing);
    return probe;
}

// libbabeltrace2 died probing several traces at once (a parent directory): each is probed alone
// to find the ones it dies on, and the others together, so one bad trace does not cost the
// rest. The fatal ones join the rejected traces; `lost` is left set only when none survive.
Result<ProbeResult> probe_apart(const fs::path& input, const std::vector<fs::path>& traces,
                                const fs::path& self_exe, std::optional<Error>& lost) {
    std::vector<fs::path> survivors;
    std::vector<Error> fatal;
    for (const auto& trace : traces) {
        std::optional<Error> died;
        (void)run_probe(trace, {trace}, self_exe, died);  // a clean rejection: the joint probe's
        if (died) {
            fatal.push_back(std::move(*died));
        } else {
            survivors.push_back(trace);
        }
    }
    ProbeResult result;
    lost.reset();
    if (survivors.empty()) {
        lost = std::move(fatal.front());
        fatal.erase(fatal.begin());
    } else if (auto joint = run_probe(input, survivors, self_exe, lost); joint) {
        result = std::move(*joint);
    } else if (fatal.empty()) {
        return joint;
    } else {
        result.rejected.push_back(std::move(joint).take_error());
    }
    for (auto& e : fatal) result.rejected.push_back(std::move(e));
    return result;
}

// The trace events (not the bookkeeping kinds in parentheses) a chunk's counts add.
std::uint64_t trace_events(const ingest::IngestReport& counts) {
    std::uint64_t n = 0;
    for (const auto& [kind, s] : counts.kinds())
        if (!kind.empty() && kind.front() != '(') n += s.read;
    return n;
}

}  // namespace

Result<std::unique_ptr<CtfSource>> CtfSource::open(const fs::path& input,
                                                   const fs::path& self_exe) {
    // Before the probe: a file that changes while it runs is probed again at refresh().
    const std::uint64_t fingerprint = tree_fingerprint(input);
    auto traces = find_traces(input);
    if (!traces) return std::move(traces).take_error();
    std::optional<Error> lost;
    auto probe = run_probe(input, *traces, self_exe, lost);
    if (lost && traces->size() > 1) probe = probe_apart(input, *traces, self_exe, lost);
    if (!probe) {
        Error e = std::move(probe).take_error();
        if (e.input.empty()) e.in_input(input.string());
        return e;
    }
    std::unique_ptr<CtfSource> source(
        new CtfSource(input, self_exe, std::move(*probe), fingerprint));
    // libbabeltrace2 died on the traces: a capture of no events, and the report says why.
    if (lost) source->report_.stopped(std::move(*lost));
    return source;
}

CtfSource::CtfSource(fs::path input, fs::path self_exe, ProbeResult probe,
                     std::uint64_t fingerprint)
    : input_(std::move(input)),
      self_exe_(std::move(self_exe)),
      probe_(std::move(probe)),
      fingerprint_(fingerprint),
      report_("ctf", input_.string()) {
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

ingest::InputClock CtfSource::clock() const {
    return probe_.clock;
}

Status CtfSource::refresh() {
    if (tree_fingerprint(input_) == fingerprint_) return {};
    end_reading();
    auto fresh = open(input_, self_exe_);
    if (!fresh) return std::move(fresh).take_error();
    probe_ = std::move((*fresh)->probe_);
    fingerprint_ = (*fresh)->fingerprint_;
    report_ = std::move((*fresh)->report_);
    return {};
}

Status CtfSource::start(const CaptureContext& ctx) {
    end_reading();
    zero_ = ctx.zero_monotonic_ns;
    watermark_ = 0;
    spans_.clear();
    events_read_ = 0;
    finished_ = false;
    report_.bytes_done = 0;
    queue_ = std::make_unique<ingest::BoundedQueue<Chunk>>(kQueuedChunks);
    spare_ = std::make_unique<ingest::BoundedQueue<Chunk>>(kQueuedChunks);
    if (probe_.traces.empty()) {
        // The probe's worker died: only the zero samples a capture needs (event_mapper.hpp).
        Chunk chunk;
        for (const auto& name : {counter::kDiscardedEvents, counter::kDiscardedPackets})
            if (const auto key = ctx.counters.key(name))
                chunk.events.emplace_back(model::CounterSample{0, 0, *key, 0, -1});
        chunk.finished = true;
        queue_->push(std::move(chunk));
        return {};
    }
    // The counters this capture enabled that the worker may fill, in the order it keys them.
    std::vector<std::string> names{
        std::string(counter::kIrqCount),        std::string(counter::kIrqTime),
        std::string(counter::kSoftirqCount),    std::string(counter::kSoftirqTime),
        std::string(counter::kDiscardedEvents), std::string(counter::kDiscardedPackets),
        std::string(counter::kCpuActivity)};
    for (const auto& p : probe_.needs.perf) names.push_back(p.counter);
    std::vector<std::string> args{"decode", std::to_string(zero_), std::to_string(time_origin())};
    std::vector<std::string> enabled;
    keys_.clear();
    for (const auto& name : names) {
        const auto key = ctx.counters.key(name);
        if (!key || std::find(enabled.begin(), enabled.end(), name) != enabled.end()) continue;
        enabled.push_back(name);
        keys_.push_back(*key);
    }
    args.push_back(std::to_string(enabled.size()));
    args.insert(args.end(), enabled.begin(), enabled.end());
    for (const auto& t : probe_.traces) args.push_back(t.string());
    auto worker = WorkerClient::start(self_exe_, args);
    if (!worker) {
        finished_ = true;
        Error e = std::move(worker).take_error();
        if (e.input.empty()) e.in_input(input_.string());
        return e;
    }
    worker_ = std::move(*worker);
    reader_ = std::thread([this] { read_frames(); });
    return {};
}

std::string CtfSource::doing() const {
    return "decoding " + input_.string() + " after " + std::to_string(events_read_.load()) +
           " events";
}

void CtfSource::read_frames() {
    const auto doing = [this] { return this->doing(); };
    for (;;) {
        std::optional<Chunk> spare = spare_->try_pop();
        Chunk chunk = spare ? std::move(*spare) : Chunk{};
        auto kind = worker_->next(body_, doing);
        if (!kind) return end_with(std::move(kind).take_error(), std::move(chunk));
        if (*kind == FrameKind::Error) {
            // libbabeltrace2 could not build the graph: its own words.
            Error error;
            if (Status st = decode_error(body_, error); !st)
                return end_with(worker_->malformed(st.error(), doing()), std::move(chunk));
            if (error.input.empty()) error.in_input(input_.string());
            return end_with(std::move(error), std::move(chunk));
        }
        if (*kind != FrameKind::Chunk) {
            const bool end = *kind == FrameKind::End;
            Error e =
                end ? Error::at(ErrorKind::Internal,
                                "the CTF worker ended before the trace's end: " + doing())
                    : worker_->malformed(
                          Error::at(ErrorKind::Internal, "an unexpected probe frame"), doing());
            return end_with(std::move(e), std::move(chunk));
        }
        // Decoded into a chunk the poller gave back, when there is one: its event vector is
        // reused.
        if (Status st = decode_chunk(body_, keys_, chunk); !st)
            return end_with(worker_->malformed(st.error(), doing()), std::move(chunk));
        events_read_ += trace_events(chunk.counts);
        const bool finished = chunk.finished;
        if (!queue_->push(std::move(chunk)) || finished) return;  // stopped, or the end
    }
}

// Reading ends early with `e`: one last chunk says so (the events already sent are kept).
void CtfSource::end_with(Error e, Chunk chunk) {
    chunk.events.clear();
    chunk.texts.clear();
    chunk.counts = ingest::IngestReport("ctf", "");
    chunk.counts.stopped(std::move(e));
    chunk.watermark = 0;
    chunk.clock_ns = 0;
    chunk.finished = true;
    queue_->push(std::move(chunk));
}

PollResult CtfSource::poll(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !queue_) return {watermark_, true};
    std::optional<Chunk> chunk = queue_->pop();
    if (!chunk) {
        finished_ = true;
        return {watermark_, true};
    }
    spans_.track(chunk->events);
    // A worker that died left its annotations open: they end where the capture got to.
    if (chunk->finished) spans_.close_all(std::max(watermark_, chunk->watermark), chunk->events);
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
    end_reading();
    // A capture stopped before the trace's end still ends its open annotations.
    spans_.close_all(watermark_, out);
    finished_ = true;
}

void CtfSource::end_reading() {
    if (queue_) queue_->close();
    if (worker_) worker_->kill();  // wakes the reader if it waits for the worker
    if (reader_.joinable()) reader_.join();
    worker_.reset();  // reaps the worker
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
        Error e = problems[i];
        if (e.input.empty()) e.in_input(input_.string());
        if (counts.stop_reason() && i + 1 == problems.size())
            report_.stopped(std::move(e));
        else
            report_.bad_record(std::move(e));
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
