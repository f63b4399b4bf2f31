#include "collectors/xray/xray_source.hpp"

#include <algorithm>

namespace apcgate::collectors::xray {

Result<std::unique_ptr<XraySource>> XraySource::open(const ingest::IngestOptions& options) {
    std::unique_ptr<XraySource> s(new XraySource(options));
    if (!options.binary.empty()) {
        auto names = FunctionNames::load(options.binary);
        if (!names) return std::move(names).take_error();
        s->names_ = std::move(*names);
        s->program_ = options.binary.filename().string();
    }
    if (Status st = s->load(); !st) return std::move(st).take_error();
    return s;
}

Status XraySource::load() {
    report_ = std::make_unique<ingest::IngestReport>("xray", options_.input.string());
    reader_.reset();
    // The threads' cursors read the file in many places at once, not front to back.
    auto mapped = MappedInput::open(options_.input, MappedInput::Access::Scattered);
    if (!mapped) return std::move(mapped).take_error();
    input_ = std::move(*mapped);
    report_->bytes_total = input_.bytes().size();
    auto reader = XrayReader::open(input_.bytes(), options_.input.string(), *report_);
    if (!reader) return std::move(reader).take_error();
    reader_ = std::move(*reader);
    origin_ = reader_->origin_ns();
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
    // The CPUs the log's threads ran on are its cores (bounded: a CPU number is 16 bits).
    if (reader_) {
        const int cores =
            static_cast<int>(std::min<std::uint32_t>(reader_->index().max_cpu, kMaxCores - 1)) + 1;
        target.cores = std::max(target.cores, cores);
    }
}

Status XraySource::start(const CaptureContext& ctx) {
    // Every capture reads the log from the start: it may have been rewritten since.
    if (Status st = load(); !st) return st;
    zero_ = ctx.zero_monotonic_ns;
    watermark_ = origin_ ? *origin_ - zero_ : 0;
    finished_ = false;
    mapper_ =
        std::make_unique<SpanMapper>(names_, reader_->stats(), program_, options_.binary.string());
    rates_.start(reader_->index(), ctx.counters);
    return {};
}

PollResult XraySource::poll(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !reader_ || !mapper_) return {watermark_, true};
    std::uint32_t thread = 0;
    const CallEvent* e = nullptr;
    for (std::size_t n = 0; n < kEventsPerPoll; ++n) {
        const auto step = reader_->next(thread, e);
        if (step == XrayReader::Step::Done) {
            finish(out);
            break;
        }
        const ThreadInfo& info = reader_->thread(thread);
        if (step == XrayReader::Step::ThreadEnd) {
            mapper_->thread_end(watermark_, thread, info, out);
            continue;
        }
        const model::Nanos ts = e->ns - zero_;
        rates_.advance(ts, out);
        if (is_entry(e->kind)) rates_.count_call(thread);
        mapper_->event(ts, thread, info, *e, reader_->args(thread, *e), reader_->payload(*e), out);
        watermark_ = ts;
    }
    reader_->stats().flush(*report_);
    report_->bytes_done = finished_ ? report_->bytes_total : reader_->bytes_done();
    return {watermark_, finished_};
}

void XraySource::finish(std::vector<model::Event>& out) {
    rates_.finish(out);
    finished_ = true;
}

void XraySource::stop(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (finished_ || !reader_ || !mapper_) return;
    // The capture ended before the log did: close what is open where the capture stopped.
    for (std::uint32_t t = 0; t < reader_->index().threads.size(); ++t)
        mapper_->thread_end(watermark_, t, reader_->thread(t), out);
    finish(out);
    reader_->stats().flush(*report_);
}

}  // namespace apcgate::collectors::xray
