#include "collectors/perf/record_tokenizer.hpp"

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::perf {

RecordTokenizer::RecordTokenizer(std::span<const std::uint8_t> bytes, std::uint64_t base_offset)
    : bytes_(bytes), base_(base_offset) {}

std::optional<RawRecord> RecordTokenizer::next() {
    if (error_ || pos_ >= bytes_.size()) return std::nullopt;
    wire::ByteReader r(bytes_.subspan(pos_), wire::Endian::Little, base_ + pos_, "perf ring");
    r.set_record("perf_event_header");
    RawRecord rec;
    rec.offset = base_ + pos_;
    rec.type = r.u32("type");
    rec.misc = r.u16("misc");
    const std::uint16_t size = r.u16("size");
    if (r.ok() && size < kHeaderBytes)
        r.fail("record size " + std::to_string(size) + " < 8", "size");
    if (r.ok() && size > bytes_.size() - pos_)
        r.fail(ErrorKind::Truncated,
               "record size " + std::to_string(size) + " runs past the copied bytes", "size");
    if (!r.ok()) {
        error_ = r.take_error();
        return std::nullopt;
    }
    rec.body = bytes_.subspan(pos_ + kHeaderBytes, size - kHeaderBytes);
    pos_ += size;
    return rec;
}

}  // namespace apcgate::collectors::perf
