#include "collectors/xray/xray_source.hpp"

#include <algorithm>
#include <system_error>

#include "collectors/ingest/input_cut.hpp"
#include "collectors/xray/problem_handover.hpp"

namespace apcgate::collectors::xray {

namespace {
// A call maps to one annotation or a few (a channel's first span names it too).
constexpr std::size_t kBatchSlack = 64;
}  // namespace

Result<std::unique_ptr<XraySource>> XraySource::open(const XrayOptions& options) {
    std::unique_ptr<XraySource> s(new XraySource(options));
    if (!options.binary.empty()) {
        auto names = FunctionNames::load(options.binary, options.debug_dirs);
        if (!names) return std::move(names).take_error();
        s->names_ = std::move(*names);
        s->names_note_ = s->names_.origin_note(options.binary);
        s->program_ = options.binary.filename().string();
    }
    if (Status st = s->load(); !st) return std::move(st).take_error();
    return s;
}

XraySource::~XraySource() {
    end_decoding();
}

Status XraySource::load() {
    unread_ = false;
    report_ = std::make_unique<ingest::IngestReport>("xray", options_.input.string());
    report_->add_statistics(XrayStatistics{});  // shown whole, zero or not
    // The decoders keep reporting here from the decoding thread; it starts empty each time.
    decoded_ = std::make_unique<ingest::IngestReport>("xray", options_.input.string());
    reader_.reset();
    // The threads' cursors read the file in many places at once, not front to back.
    auto mapped = wire::MappedFile::open(options_.input, wire::MappedFile::Access::Scattered);
    if (!mapped) return std::move(mapped).take_error();
    input_ = std::move(*mapped);
    report_->bytes_total = input_.bytes().size();
    for (const auto& note : options_.notes) report_->note(note);
    if (!names_note_.empty()) report_->note(names_note_);
    auto reader = XrayReader::open(input_.bytes(), options_.input.string(), *decoded_);
    if (!reader) return std::move(reader).take_error();
    reader_ = std::move(*reader);
    origin_ = reader_->origin_ns();
    to_monotonic_ = reader_->to_monotonic();
    tsc_hz_ = reader_->tsc_hz();
    // The index's problems belong to the report at once (the capture may never start).
    add_report(*decoded_, *report_);
    *decoded_ = ingest::IngestReport("xray", options_.input.string());
    unread_ = true;
    return {};
}

model::Nanos XraySource::time_origin() const {
    // A log without events must not pull the shared timeline's zero anywhere.
    return origin_.value_or(kNever);
}

void XraySource::declare(model::CounterCatalog& catalog) {
    if (reader_) CallRateCounters::declare(reader_->index(), catalog);
}

void XraySource::describe(model::TargetInfo& target) {
    if (target.name.empty()) target.name = program_.empty() ? "XRay log" : program_ + " (XRay)";
    // Every CPU a record names is a core of the capture, so that no message names a core the
    // capture does not declare (a CPU number is 16 bits, so the count stays bounded).
    if (reader_) {
        const int cores = static_cast<int>(reader_->index().max_cpu) + 1;
        target.cores = std::max(target.cores, cores);
    }
}

Status XraySource::refresh() {
    end_decoding();  // a capture that was not stopped must not read what load() replaces
    // Every capture reads the log from the start: it may have been rewritten since. What was
    // loaded is kept when no capture has read it yet and the file is still the same one (a
    // large log's index and mapping cost several ms, before the decoding thread can start).
    // (The mapping's identity tells the file apart from the same path rewritten.)
    const auto now = wire::MappedFile::identify(options_.input);
    const bool same = reader_ && unread_ && now && *now == input_.identity();
    return same ? Status{} : load();
}

Status XraySource::start(const CaptureContext& ctx) {
    end_decoding();
    full_.reset();
    mapper_.reset();
    finished_ = true;  // until the log is loaded again
    if (Status st = refresh(); !st) return st;
    unread_ = false;
    zero_ = ctx.zero_monotonic_ns;
    watermark_ = origin_ ? *origin_ - zero_ : 0;
    decode_watermark_ = watermark_;
    finished_ = false;
    names_.reset_outside_map();
    mapper_ =
        std::make_unique<SpanMapper>(names_, reader_->stats(), program_, options_.binary.string());
    rates_.start(reader_->index(), ctx.counters);
    full_ = std::make_unique<ingest::BoundedQueue<Batch>>(kQueuedBatches);
    spare_ = std::make_unique<ingest::BoundedQueue<std::vector<model::Event>>>(kQueuedBatches + 1);
    stop_requested_ = false;
    inline_ = !options_.decoding_thread.value_or(ingest::usable_cpus() > 1);
    if (inline_) {
        full_->close();  // nothing comes through it: stop() finds it empty
        return {};
    }
    try {
        decoder_ = std::thread([this] { decode(); });
    } catch (const std::system_error& e) {
        finished_ = true;
        return Error::at(ErrorKind::Io,
                         std::string("cannot start the decoding thread: ") + e.what());
    }
    return {};
}

void XraySource::decode() {
    for (bool done = false; !done;) {
        Batch b = next_batch();
        done = b.finished;
        if (!full_->push(std::move(b))) return;  // the source is going away
        if (stop_requested_.load(std::memory_order_relaxed)) break;
    }
    full_->close();  // after the last batch: poll() and stop() see the end
}

XraySource::Batch XraySource::next_batch() {
    Batch b;
    if (auto spare = spare_->try_pop()) b.events = std::move(*spare);
    b.events.reserve(kEventsPerBatch + kBatchSlack);
    b.finished = map_batch(b.events);
    if (const auto cut = input_.cut_at()) {
        // This batch read past the file's end, which was cut meanwhile (the earlier batches did
        // not: they were checked the same way): its events may come from the zeros read there.
        // Open calls stay open, as when a capture stops early.
        b.events.clear();
        b.finished = true;
        b.cut = true;
        decoded_->cut_short(ingest::input_cut_error(input_, *cut));
    }
    b.stats = std::exchange(reader_->stats(), Stats{});
    if (decoded_->problem_count() != 0) {
        b.problems = std::make_unique<ingest::IngestReport>(
            std::exchange(*decoded_, ingest::IngestReport("xray", options_.input.string())));
    }
    b.watermark = decode_watermark_;
    b.bytes_done = reader_->bytes_done();
    return b;
}

bool XraySource::map_batch(std::vector<model::Event>& out) {
    // Calls map to one annotation each, custom events to two: a quarter more covers a batch
    // even when many of its events are custom ones.
    mapper_->budget(kEventsPerBatch + kEventsPerBatch / 4);
    for (std::size_t n = 0; n < kEventsPerBatch;) {
        // The merged steps come many at a time, so this loop keeps its state in registers.
        const auto steps = reader_->steps(kEventsPerBatch - n);
        if (steps.empty()) {
            rates_.finish(out);
            report_names_outside_map();
            report_depth_limit();
            return true;
        }
        n += steps.size();
        for (const TimelineMerger::Merged& m : steps) {
            const ThreadInfo& info = reader_->thread(m.thread);
            if (m.step == XrayReader::Step::ThreadEnd) {
                mapper_->thread_end(decode_watermark_, m.thread, info, out);
                continue;
            }
            const CallEvent& e = *m.event;
            const model::Nanos ts = e.ns - zero_;
            rates_.advance(ts, out);
            if (is_entry(e.kind)) rates_.count_call(m.thread);
            if (!mapper_->common_call(ts, m.thread, info.tid, e, out))
                mapper_->event(ts, m.thread, info, e, reader_->args(m.thread, e),
                               reader_->payload(e), out);
            decode_watermark_ = ts;
        }
    }
    return false;
}

void XraySource::take(Batch& b, std::vector<model::Event>& out) {
    b.stats.flush(*report_);
    if (b.problems) add_report(*b.problems, *report_);
    if (out.empty()) {
        out.swap(b.events);  // the engine hands back an emptied vector: the thread reuses it
        b.events.clear();
        spare_->try_push(std::move(b.events));
    } else {
        out.insert(out.end(), std::make_move_iterator(b.events.begin()),
                   std::make_move_iterator(b.events.end()));
    }
    watermark_ = std::max(watermark_, b.watermark);
    report_->bytes_done = b.finished && !b.cut ? report_->bytes_total : b.bytes_done;
    if (b.finished) {
        finished_ = true;
        note_short_buffers();
    }
}

PollResult XraySource::poll(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !full_) return {watermark_, true};
    if (inline_) {
        Batch b = next_batch();
        take(b, out);
    } else if (std::optional<Batch> b = full_->pop()) {
        take(*b, out);
    } else {
        finished_ = true;  // the thread ended without a last batch (stopped)
    }
    if (finished_) end_decoding();
    return {watermark_, finished_};
}

void XraySource::stop(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !full_ || !mapper_) return;
    // Ask the thread to end after its batch, and take every batch it made until then.
    stop_requested_ = true;
    bool log_done = false;
    while (std::optional<Batch> b = full_->pop()) {
        log_done = log_done || b->finished;
        take(*b, out);
    }
    end_decoding();
    if (!log_done) {
        // The capture ended before the log did: close what is open at the last event's time.
        for (std::uint32_t t = 0; t < reader_->index().threads.size(); ++t)
            mapper_->thread_end(decode_watermark_, t, reader_->thread(t), out);
        rates_.finish(out);
        report_names_outside_map();
        report_depth_limit();
        reader_->stats().flush(*report_);
        if (decoded_->problem_count() != 0) add_report(*decoded_, *report_);
        note_short_buffers();
    }
    finished_ = true;
}

void XraySource::note_short_buffers() {
    const auto& short_buffers = XrayStatistics::spec(XrayStat::ShortBuffers);
    const std::uint64_t n = report_->statistic(short_buffers);
    if (n == 0) return;
    report_->note(std::to_string(n) +
                  " buffers end inside a record, as LLVM 14's runtime writes them: it counts a "
                  "typed event's payload in its buffer's extents but not its 16-byte marker, so "
                  "the last 16 bytes per typed event of such a buffer are not in the log (counted "
                  "as " +
                  std::string(short_buffers.name) + "; everything before them is kept)");
}

void XraySource::report_names_outside_map() {
    const FunctionNames::OutsideMap outside = names_.outside_map();
    if (outside.calls == 0) return;
    // The --binary given is not the one that wrote the log.
    Error e =
        Error::at(ErrorKind::Usage,
                  std::to_string(outside.calls) +
                      " calls of functions the instrumentation map of " + options_.binary.string() +
                      " does not have (the first: id " + std::to_string(outside.first_id) +
                      "; the map numbers " + std::to_string(names_.size()) +
                      " functions): the log was written by another program or build, so the "
                      "names of the other calls may be wrong too; such calls are named fn#ID");
    e.input = options_.input.string();
    e.record = std::string(stat_name(Stat::FunctionEnter));
    e.field = "function";
    decoded_->bad_record(std::move(e));
    names_.reset_outside_map();
}

void XraySource::report_depth_limit() {
    const std::uint64_t calls = mapper_->calls_deeper_than_limit();
    if (calls == 0) return;
    Error e = Error::at(
        ErrorKind::Limit,
        std::to_string(calls) + " calls nested deeper than " +
            std::to_string(SpanMapper::kMaxDepth) +
            " levels are not shown (the deepest nesting: " + std::to_string(mapper_->deepest()) +
            " levels); their exits are matched, and the calls around them shown");
    e.input = options_.input.string();
    // No record kind: no record was malformed (the entries not shown are counted as skipped,
    // and the calls as xray_calls_deeper_than_limit); the problem is the capture lacking them.
    decoded_->bad_record(std::move(e));
}

void XraySource::end_decoding() {
    if (full_) full_->close();
    if (decoder_.joinable()) decoder_.join();
}

}  // namespace apcgate::collectors::xray
