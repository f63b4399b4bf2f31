#include "collectors/fxt/fxt_source.hpp"

#include <algorithm>

#include "collectors/ingest/input_cut.hpp"

namespace apcgate::collectors::fxt {

namespace {
// The first pass, giving its pages back as it goes.
std::unique_ptr<ArchiveIndex> index_of(const wire::MappedFile& input) {
    PageRelease pages(input.bytes());
    return std::make_unique<ArchiveIndex>(build_index(input.bytes(), &pages));
}
}  // namespace

FxtSource::FxtSource(std::filesystem::path path, wire::MappedFile input,
                     ArchiveReader::Limits limits)
    : path_(std::move(path)),
      input_(std::move(input)),
      index_(index_of(input_)),
      limits_(limits),
      report_("fxt", path_.string()) {
    report_.bytes_total = input_.bytes().size();
}

Result<std::unique_ptr<FxtSource>> FxtSource::open(const std::filesystem::path& path,
                                                   ArchiveReader::Limits limits) {
    auto input = wire::MappedFile::open(path);
    if (!input) return std::move(input).take_error();
    return std::unique_ptr<FxtSource>(new FxtSource(path, std::move(input).value(), limits));
}

void FxtSource::declare(model::CounterCatalog& catalog) {
    index_->counters.declare(catalog);
    if (!index_->has_switches) return;
    model::CounterSpec spec;
    spec.counter = kActivityCounter;
    spec.category = "FXT";
    spec.title = "CPU Activity";
    spec.name = "Threads";
    spec.description = "Threads running on each CPU, from the archive's context switch records";
    spec.cls = model::CounterClass::Activity;
    spec.per_cpu = true;
    spec.activities = {"Running"};
    spec.activity_colors = {0x0000c000};
    spec.cores = std::max(1, index_->cpus);
    spec.rendering_type = "bar";
    spec.series_composition = "stacked";
    catalog.add(std::move(spec));
}

void FxtSource::describe(model::TargetInfo& target) {
    if (target.name.empty()) {
        for (const auto& p : index_->providers) {
            if (!p.name.empty()) {
                target.name = p.name;
                break;
            }
        }
        if (target.name.empty()) target.name = path_.stem().string();
    }
    target.cores = std::max(target.cores, index_->cpus);
}

model::Nanos FxtSource::time_origin() const {
    return index_->origin_ns == kNever ? 0 : index_->origin_ns;
}

Status FxtSource::refresh() {
    run_.reset();  // drops views into the old mapping before it may be replaced
    auto identity = wire::MappedFile::identify(path_);
    if (!identity) return std::move(identity).take_error();
    if (!unread_ || *identity != input_.identity()) {
        // Read afresh: a debugger or writer may have replaced the archive since the last read
        // (a capture's read, or the same path rewritten).
        auto input = wire::MappedFile::open(path_);
        if (!input) return std::move(input).take_error();
        index_.reset();
        input_ = std::move(input).value();
        index_ = index_of(input_);
        unread_ = true;
    }
    return {};
}

Status FxtSource::start(const CaptureContext& ctx) {
    if (Status st = refresh(); !st) return st;
    unread_ = false;
    report_ = ingest::IngestReport("fxt", path_.string());
    report_.bytes_total = input_.bytes().size();

    FxtRun& run = run_.emplace();
    run.koids = index_->koids;
    run.zero = ctx.zero_monotonic_ns;
    run.reader =
        std::make_unique<ArchiveReader>(input_.bytes(), *index_, run.koids, report_, limits_);
    run.mapper = std::make_unique<ModelMapper>(*index_, run.koids, ctx, report_);
    run.pages.emplace(input_.bytes());
    return {};
}

PollResult FxtSource::poll(model::Nanos now, std::vector<model::Event>& out) {
    (void)now;
    if (!run_ || run_->finished) return {run_ ? run_->last : 0, true};
    FxtRun& run = *run_;
    const std::size_t first = out.size();
    if (!run.prelude_sent) {
        run.mapper->prelude(time_origin(), out);
        run.prelude_sent = true;
    }
    run.items.clear();
    const ArchiveReader::Chunk chunk = run.reader->read(run.items);
    if (const auto cut = input_.cut_at()) {
        // The chunk read past the file's end, which was cut meanwhile: the reader found zeros
        // there, not the file's records, and any of the chunk's items may hold them.
        run.reader->recycle(run.items);
        run.items.clear();
        report_.cut_short(ingest::input_cut_error(input_, *cut));
        run.mapper->finish();
        run.finished = true;
        run.reader.reset();
        return {run.last, true};
    }
    for (Item& item : run.items) run.mapper->map(item, out);
    // The mapper has copied (or moved away) every text: their buffers serve the next chunk.
    run.reader->recycle(run.items);
    run.mapper->flush(chunk.finished ? kNever : chunk.watermark, out);
    report_.bytes_done = run.reader->bytes_read();
    run.pages->upto(run.reader->read_past());
    for (std::size_t i = first; i < out.size(); ++i)
        run.last = std::max(run.last, model::timestamp_of(out[i]));
    if (chunk.finished) {
        run.mapper->finish();
        run.finished = true;
        run.reader.reset();  // the read is over: give its buffers back
        return {run.last, true};
    }
    return {std::max(run.last, chunk.watermark - run.zero), false};
}

void FxtSource::stop(model::Nanos now, std::vector<model::Event>& out) {
    (void)now;
    (void)out;
    // A capture stopped early keeps what was sent; spans still open stay open in Streamline.
    if (run_) {
        if (!run_->finished && run_->mapper) run_->mapper->finish();
        run_->finished = true;
        run_->reader.reset();
    }
}

}  // namespace apcgate::collectors::fxt
