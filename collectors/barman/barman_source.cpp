#include "collectors/barman/barman_source.hpp"

#include <algorithm>
#include <array>

#include "collectors/barman/cpu_types.hpp"
#include "collectors/barman/record_kinds.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::barman {
namespace {

// A quick pass over the blocks (only record headers are read): the earliest record timestamp
// in ticks (nullopt when there is no record), and the cores records name.
struct BlockSurvey {
    std::optional<std::uint64_t> earliest;
    int cores = 0;  // the highest core a record names, below max_cores, + 1
};

BlockSurvey survey_blocks(const BarmanSource::Loaded& in) {
    BlockReader reader(in.file, in.geometry, in.header.preamble.abi);
    BlockSurvey s;
    const auto max_cores = static_cast<std::uint32_t>(in.header.cores.size());
    const wire::Endian endian = in.header.preamble.abi.endian;
    std::uint64_t earliest = UINT64_MAX;  // UINT64_MAX: no record ("use the last") sets it
    int cores = 0;
    reader.scan([&](bool padding, std::span<const std::uint8_t> data) {
        if (padding || data.size() < RecordLayout::kHeaderSize) return;
        // Checked against kHeaderSize above.
        const std::uint32_t core = wire::load_u32(data.data() + 4, endian);
        const std::uint64_t ticks = wire::load_u64(data.data() + 8, endian);
        earliest = std::min(earliest, ticks);
        // A core past max_cores is a corrupt record, reported when it is decoded.
        if (core < max_cores) cores = std::max(cores, static_cast<int>(core) + 1);
    });
    if (earliest != UINT64_MAX) s.earliest = earliest;
    s.cores = cores;
    return s;
}

Error oversized_block(const Block& b) {
    Error e = Error::at(ErrorKind::Limit, "block of " + std::to_string(b.length) +
                                              " bytes is longer than any record (" +
                                              std::to_string(kMaxBlockBytes) + "): skipped");
    e.offset = b.file_offset;
    e.record = std::string(kind::kBlock);
    e.field = "length";
    return e;
}

std::string_view kind_of(const RecordRef& r) {
    return std::visit(
        [](const auto& v) {
            if constexpr (std::is_pointer_v<std::decay_t<decltype(v)>>)
                return kind::of_type(v->header.type);
            else
                return kind::of_type(v.header.type);
        },
        r);
}

}  // namespace

// One capture's reading state. Built in place and never moved: the reader, parser and mapper
// refer to the file, header and geometry it owns.
struct BarmanSource::Capture {
    Capture(Loaded loaded, const model::CaptureCounters& counters, model::Nanos zero)
        : in(std::move(loaded)),
          plan(plan_counters(in.header)),
          parser(in.header),
          mapper(in.header, plan, counters, zero, in.geometry.evicted),
          reader(in.file, in.geometry, in.header.preamble.abi),
          order(std::min<std::size_t>(in.header.cores.size(), 64) + 1) {}

    Loaded in;
    CounterPlan plan;
    RecordParser parser;
    RecordMapper mapper;
    BlockReader reader;
    EventOrder order;
    BarmanStatistics reported;  // what add_statistics() has added to the report so far
    ingest::KindTally tally;    // records counted since the last poll()
    // The fast path's records (samples, custom counter values) counted by type, a slot per
    // type below kind::kTypes (slot 0 for any other), folded into `tally` at the poll's end:
    // an array index where the tally finds a kind by its name.
    std::array<ingest::RecordStats, kind::kTypes> by_type{};
    bool done = false;
};

BarmanSource::BarmanSource(std::filesystem::path path, Header header, model::Nanos origin,
                           int cores_named, std::uint64_t size)
    : path_(std::move(path)),
      header_(std::move(header)),
      plan_(plan_counters(header_)),
      origin_(origin),
      cores_named_(cores_named),
      report_("barman", path_.string()) {
    report_.bytes_total = size;
}

BarmanSource::~BarmanSource() = default;

Result<BarmanSource::Loaded> BarmanSource::load(const std::filesystem::path& path) {
    auto file = DumpFile::open(path);
    if (!file) return std::move(file).take_error();
    std::vector<std::uint8_t> head(
        static_cast<std::size_t>(std::min<std::uint64_t>(file->size(), HeaderPlan::kFixedSize)));
    if (Status st = file->read_at(0, head); !st) return std::move(st).take_error();
    auto preamble = read_preamble(head);
    if (!preamble) return std::move(preamble).take_error().in_input(path.string());
    // read_header() checks header_length against the file size and the constants.
    head.resize(
        static_cast<std::size_t>(std::min<std::uint64_t>(file->size(), preamble->header_length)));
    if (Status st = file->read_at(0, head); !st) return std::move(st).take_error();
    auto header = read_header(head, file->size());
    if (!header) return std::move(header).take_error().in_input(path.string());
    std::vector<Error> problems;
    StoreGeometry geometry = plan_store(*header, file->size(), problems);
    return Loaded{std::move(file).value(), std::move(header).value(), std::move(geometry),
                  std::move(problems)};
}

model::Nanos BarmanSource::origin_of(const Loaded& loaded, int& cores_named) {
    const BlockSurvey survey = survey_blocks(loaded);
    cores_named = survey.cores;
    const auto& earliest = survey.earliest;
    // The input's ns domain is ns since timestamp_base; records before the base move it back,
    // by at most 2^60 ns (36 years) so that the driver's arithmetic on origins cannot overflow
    // (earlier records are put at that bound).
    constexpr model::Nanos kFurthestBack = -(model::Nanos{1} << 60);
    return earliest ? std::clamp<model::Nanos>(loaded.header.preamble.clock.to_ns(*earliest),
                                               kFurthestBack, 0)
                    : 0;
}

Result<std::unique_ptr<BarmanSource>> BarmanSource::open(const ingest::IngestOptions& options) {
    auto loaded = load(options.input);
    if (!loaded) return std::move(loaded).take_error();
    int cores_named = 0;
    const model::Nanos origin = origin_of(*loaded, cores_named);
    const std::uint64_t size = loaded->file.size();
    auto source = std::unique_ptr<BarmanSource>(
        new BarmanSource(options.input, loaded->header, origin, cores_named, size));
    // What was read is what the first start() reads, unless the file changes before.
    source->surveyed_ = loaded->file.identity();
    source->refreshed_ = std::move(loaded).value();
    return source;
}

Status BarmanSource::refresh() {
    capture_.reset();
    // What the last read found is still the file at the path: start() reads that.
    if (auto now = wire::MappedFile::identify(path_);
        refreshed_ && now && *now == refreshed_->file.identity())
        return {};
    auto loaded = load(path_);
    if (!loaded)
        return std::move(loaded).take_error().while_(
            "reading the Barman data store at capture start");
    // The survey reads every block (as long as the capture's own pass over the records takes to
    // read them): it is needed only for a version of the file it has not seen.
    if (!surveyed_ || loaded->file.identity() != *surveyed_) {
        origin_ = origin_of(*loaded, cores_named_);
        surveyed_ = loaded->file.identity();
    }
    refreshed_ = std::move(loaded).value();
    return {};
}

void BarmanSource::declare(model::CounterCatalog& catalog) {
    barman::declare(plan_, catalog);
}

void BarmanSource::describe(model::TargetInfo& target) {
    if (target.name.empty()) target.name = header_.target_name;
    // The cores with PMU settings, and any other a record names (an annotation or a custom
    // counter from a core whose PMU was never set up): no event is on a core the capture lacks.
    target.cores = std::max({target.cores, plan_.cores, cores_named_});
    if (target.cpuid == 0) {
        for (const auto& core : header_.cores) {
            if (!core.configured()) continue;
            target.cpuid = cpu_type_of(core.midr).cpuid;
            break;
        }
    }
    if (target.sample_rate_hz == 0)
        target.sample_rate_hz = static_cast<int>(
            std::min<std::uint32_t>(header_.preamble.timer_sample_rate, INT32_MAX));
}

Status BarmanSource::start(const CaptureContext& ctx) {
    capture_.reset();
    const std::uint64_t total = report_.bytes_total;
    report_ = ingest::IngestReport("barman", path_.string());
    report_.bytes_total = total;
    report_.add_statistics(BarmanStatistics{});  // shown whole, zero or not
    if (!refreshed_) {
        if (Status st = refresh(); !st) return st;
    }
    std::optional<Loaded> loaded = std::move(refreshed_);
    refreshed_.reset();
    report_.bytes_total = loaded->file.size();
    report_.read(kind::kHeader);
    for (auto& p : loaded->header.problems) report_.bad_record(p);
    for (auto& p : loaded->store_problems) report_.bad_record(p);
    capture_ =
        std::make_unique<Capture>(std::move(loaded).value(), ctx.counters, ctx.zero_monotonic_ns);
    watermark_ = 0;
    const model::Nanos names_ts = since(origin_, ctx.zero_monotonic_ns);
    capture_->mapper.prologue(names_ts, capture_->order.incoming());
    capture_->order.add_loose_events();
    report_.mapped(kind::kHeader);
    return {};
}

void BarmanSource::finish_reading() {
    Capture& c = *capture_;
    c.done = true;
    if (c.reader.error())
        report_.stopped(*c.reader.error());
    else if (c.in.geometry.truncated)
        report_.stopped(*c.in.geometry.truncated);
    report_.bytes_done = report_.bytes_total;
}

PollResult BarmanSource::poll(model::Nanos /*now*/, std::vector<model::Event>& out) {
    if (!capture_ || capture_->done) return {watermark_, true};
    Capture& c = *capture_;
    const std::uint64_t first = c.reader.position();
    const std::size_t held = c.order.pending();
    Block block;
    while (c.order.pending() - held < kMaxEventsPerPoll &&
           c.reader.position() - first < kMaxBytesPerPoll) {
        const BlockReader::Step step = c.reader.next(block);
        if (step != BlockReader::Step::Block) {
            finish_reading();
            break;
        }
        if (block.padding) {
            report_.read(kind::kPadding);
            report_.skipped(kind::kPadding);
            continue;
        }
        if (block.oversized) {
            report_.read(kind::kBlock);
            report_.bad_record(oversized_block(block));
            continue;
        }
        // Samples and custom counter values, most of the records, without the variant: parse()
        // reads the others, and any record these do not take (to report what is wrong with it).
        // Each is counted with one lookup of its kind, then closed as a record of the order.
        const auto mapped_fast = [&](std::uint32_t type, bool mapped) {
            ingest::RecordStats& counts = c.by_type[type < kind::kTypes ? type : 0];
            ++counts.read;
            ++(mapped ? counts.mapped : counts.skipped);
            c.order.add_record(c.mapper.last_ts());
        };
        if (const SampleRecord* sample = c.parser.parse_sample(block.data)) {
            mapped_fast(sample->header.type,
                        c.mapper.map(*sample, block.file_offset, c.order, report_));
            continue;
        }
        if (const CustomCounterRecord* value = c.parser.parse_custom_value(block.data)) {
            mapped_fast(value->header.type, c.mapper.map(*value, c.order, report_));
            continue;
        }
        auto record = c.parser.parse(block.data, block.data_file_offset);
        if (!record) {
            Error e = std::move(record).take_error();
            report_.read(e.record);
            report_.bad_record(std::move(e));
            continue;
        }
        c.tally.read(kind_of(*record));
        c.mapper.map(*record, block.file_offset, c.order, report_, c.tally);
        c.order.add_record(c.mapper.last_ts());
    }
    if (!c.done)
        report_.bytes_done =
            std::min(report_.bytes_total, c.in.header.store.record_area + c.reader.position());
    for (std::uint32_t type = 0; type < kind::kTypes; ++type) {
        ingest::RecordStats& n = c.by_type[type];
        if (n.read == 0) continue;
        ingest::RecordStats& to = c.tally.stats(kind::of_type(type));
        to.read += n.read;
        to.mapped += n.mapped;
        to.skipped += n.skipped;
        n = {};
    }
    c.tally.flush(report_);
    watermark_ = c.order.release(out, c.done);
    add_statistics();
    return {watermark_, c.done};
}

void BarmanSource::add_statistics() {
    Capture& c = *capture_;
    BarmanStatistics now;
    now[BarmanStat::EventsMovedUp] = c.order.moved_up();
    report_.add_statistics(now.since(c.reported));
    c.reported = now;
}

void BarmanSource::stop(model::Nanos /*now*/, std::vector<model::Event>& out) {
    // A capture stopped early keeps what was decoded; the rest of the store is not read.
    if (capture_) {
        capture_->order.release(out, true);
        add_statistics();
    }
    capture_.reset();
}

}  // namespace apcgate::collectors::barman
