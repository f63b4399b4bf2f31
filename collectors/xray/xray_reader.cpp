#include "collectors/xray/xray_reader.hpp"

#include <algorithm>

#include "collectors/xray/fdr_block_index.hpp"
#include "collectors/xray/tsc_rate.hpp"
#include "collectors/xray/xray_problem.hpp"

namespace apcgate::collectors::xray {

namespace {

constexpr std::uint64_t kAssumedFrequency = 1'000'000'000;

}  // namespace

Result<std::unique_ptr<XrayReader>> XrayReader::open(std::span<const std::uint8_t> data,
                                                     const std::string& input,
                                                     ingest::IngestReport& report) {
    auto header = read_file_header(data, input);
    if (!header) return std::move(header).take_error();
    std::unique_ptr<XrayReader> r(new XrayReader());
    DecodeContext& c = r->ctx_;
    c.data = data;
    c.header = *header;
    c.input = input;
    c.report = &report;
    c.stats.read(Stat::FileHeader);
    if (c.header.type == LogType::Fdr) {
        c.fdr = fdr_format(c.header, data);
        c.index = index_fdr(data, c.fdr, c.header.buffer_size, input, c.stats, report);
    } else {
        c.index = index_basic(data, c.header, input, c.stats, report);
    }
    // The header's cycle frequency, unless the log's own clock stamps show it is wrong.
    const TscRate rate = choose_tsc_rate(
        c.header.cycle_frequency, measured_tsc_rate(c.index.wall_stamps, c.index.late_stamps));
    if (!rate.note.empty()) report.note(rate.note);
    std::uint64_t frequency = rate.hz;
    if (frequency == 0) {
        report.bad_record(
            problem(ErrorKind::Malformed, input, 8, Stat::FileHeader,
                    "cycle frequency 0 (the writer could not measure it): taking 1 GHz",
                    "cycle_frequency"));
        frequency = kAssumedFrequency;
    }
    c.clock = TscClock(frequency, c.index.min_tsc.value_or(0));
    r->tsc_hz_ = frequency;
    r->cursors_.reserve(c.index.threads.size());
    for (std::uint32_t t = 0; t < c.index.threads.size(); ++t)
        r->cursors_.push_back(std::make_unique<ThreadCursor>(c, t));
    r->merger_ = std::make_unique<TimelineMerger>(r->cursors_);
    return r;
}

std::optional<model::Nanos> XrayReader::origin_ns() const {
    if (!ctx_.index.min_tsc) return std::nullopt;
    return ctx_.clock.to_ns(*ctx_.index.min_tsc);
}

std::optional<model::Nanos> XrayReader::to_monotonic() const {
    const auto& stamps = ctx_.index.wall_stamps;
    if (stamps.empty()) return std::nullopt;
    std::vector<model::Nanos> offsets;
    offsets.reserve(stamps.size());
    for (const WallStamp& s : stamps) offsets.push_back(s.monotonic_ns - ctx_.clock.to_ns(s.tsc));
    const auto middle = offsets.begin() + static_cast<std::ptrdiff_t>(offsets.size() / 2);
    std::nth_element(offsets.begin(), middle, offsets.end());
    return *middle;
}

bool looks_like_xray(std::span<const std::uint8_t> head) {
    if (head.size() < kFileHeaderSize) return false;
    auto header = read_file_header(head.first(kFileHeaderSize), "");
    if (!header) return false;
    if (head.size() == kFileHeaderSize) return true;
    // The header alone is four small numbers; the first record makes a false match unlikely.
    const std::uint8_t first = head[kFileHeaderSize];
    if (header->type == LogType::Basic) {
        if (head.size() < kFileHeaderSize + 2) return true;
        const std::uint8_t other = head[kFileHeaderSize + 1];
        const std::uint8_t type = header->endian == wire::Endian::Little ? first : other;
        const std::uint8_t high = header->endian == wire::Endian::Little ? other : first;
        return high == 0 && type <= 1;
    }
    const std::uint8_t opening = header->version >= 2 ? 7 : 0;  // BufferExtents : NewBuffer
    return first == ((opening << 1) | 1) || first == (0x80 | opening);
}

}  // namespace apcgate::collectors::xray
