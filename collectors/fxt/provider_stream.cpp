#include "collectors/fxt/provider_stream.hpp"

#include <algorithm>
#include <cstdint>

namespace apcgate::collectors::fxt {

ProviderStream::ProviderStream(std::span<const std::uint8_t> data, wire::Endian endian,
                               const ProviderIndex& provider, model::Nanos untimed)
    : data_(data),
      parser_(endian),
      provider_(provider),
      first_(provider.first_ns == kNever ? untimed : provider.first_ns) {
    done_ = !open_next_section();
}

bool ProviderStream::open_next_section() {
    if (next_section_ >= provider_.sections.size()) return false;
    const Section& s = provider_.sections[next_section_++];
    const std::size_t end = std::min(s.end, data_.size());
    const std::size_t begin = std::min(s.begin, end);
    tokenizer_.emplace(data_.subspan(begin, end - begin), parser_.endian(), begin);
    return true;
}

model::Nanos ProviderStream::bound() const {
    if (done_) return kNever;
    if (latest_ == kNever) return first_;
    return std::max(first_, latest_ - provider_.lag_ns);
}

std::size_t ProviderStream::position() const {
    if (done_) return SIZE_MAX;
    return static_cast<std::size_t>(tokenizer_->offset());
}

std::optional<model::Nanos> ProviderStream::note_time(std::uint64_t ticks) {
    const auto ns = tables_.to_ns(ticks);
    if (ns) latest_ = latest_ == kNever ? *ns : std::max(latest_, *ns);
    return ns;
}

std::size_t ProviderStream::step(ItemBuilder& builder, ingest::IngestReport& report,
                                 std::vector<Item>& out) {
    while (!done_) {
        RawRecord raw;
        if (!tokenizer_->next_whole(raw)) {
            auto next = tokenizer_->next();
            if (!next) {
                // Size 0 or a truncated tail: nothing after it can be found; keep what was read.
                report.stopped(std::move(next).take_error());
                done_ = true;
                return 0;
            }
            if (!*next) {
                if (!open_next_section()) done_ = true;
                continue;
            }
            raw = **next;
        }
        if (RecordParser::is_event(raw)) {
            // An event changes no table: parsed into its own record, straight to the builder.
            if (!parser_.parse_event(raw, tables_, event_, failure_)) {
                report.bad_record(std::move(failure_));
                return raw.bytes.size();
            }
            const model::Nanos now = bound();
            builder.build(raw, event_, tables_, now, note_time(event_.ticks), out);
            return raw.bytes.size();
        }
        if (RecordParser::is_scheduling(raw)) {
            // The same for scheduling records.
            if (!parser_.parse_scheduling(raw, tables_, scheduling_, failure_)) {
                report.bad_record(std::move(failure_));
                return raw.bytes.size();
            }
            const model::Nanos now = bound();
            builder.build(raw, scheduling_, tables_, now, note_time(scheduling_.ticks()), out);
            return raw.bytes.size();
        }
        if (Status st = parser_.parse(raw, tables_, record_); !st) {
            report.bad_record(std::move(st).take_error());  // skipped by its size
            return raw.bytes.size();
        }
        if (std::holds_alternative<ProviderInfoRecord>(record_)) tables_.reset();
        tables_.apply(record_);
        const model::Nanos now = bound();
        if (auto ticks = start_ticks(record_)) note_time(*ticks);
        builder.build(raw, record_, tables_, now, out);
        return raw.bytes.size();
    }
    return 0;
}

}  // namespace apcgate::collectors::fxt
