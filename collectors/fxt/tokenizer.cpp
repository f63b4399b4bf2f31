#include "collectors/fxt/tokenizer.hpp"

#include <string>

#include "collectors/fxt/format.hpp"
#include "collectors/fxt/record_kinds.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::fxt {

namespace {

std::uint64_t first_word(std::span<const std::uint8_t> head, wire::Endian endian) {
    wire::ByteReader r(head, endian);
    return r.u64("magic");
}

}  // namespace

wire::Endian detect_endian(std::span<const std::uint8_t> head) {
    if (head.size() >= kWordBytes && first_word(head, wire::Endian::Big) == kMagicRecord)
        return wire::Endian::Big;
    return wire::Endian::Little;
}

bool starts_with_magic(std::span<const std::uint8_t> head) {
    return head.size() >= kWordBytes && (first_word(head, wire::Endian::Little) == kMagicRecord ||
                                         first_word(head, wire::Endian::Big) == kMagicRecord);
}

Tokenizer::Tokenizer(std::span<const std::uint8_t> data, wire::Endian endian,
                     std::uint64_t base_offset)
    : data_(data), endian_(endian), base_(base_offset) {}

Error Tokenizer::fail(ErrorKind kind, std::uint64_t header, std::string message) {
    failed_ = true;
    Error e = Error::at(kind, std::move(message));
    e.offset = base_ + pos_;
    e.record = std::string(kind::of_header(header));
    e.field = "record size";
    return e;
}

Result<std::optional<RawRecord>> Tokenizer::next() {
    if (failed_ || pos_ >= data_.size()) return std::optional<RawRecord>{};
    const std::size_t left = data_.size() - pos_;
    if (left < kWordBytes) {
        failed_ = true;
        Error e = Error::at(ErrorKind::Truncated, "truncated: " + std::to_string(left) +
                                                      " bytes left, a record header needs 8");
        e.offset = base_ + pos_;
        e.record = "record header";
        return e;
    }
    const std::uint64_t header = wire::load_u64(data_.data() + pos_, endian_);  // 8 bytes left
    const bool large = bits(header, 0, 3) == static_cast<unsigned>(RecordType::LargeRecord);
    const std::uint64_t words = large ? bits(header, 4, 35) : bits(header, 4, 15);
    if (words == 0)
        return fail(ErrorKind::Malformed, header,
                    "record size is 0 words: the next record cannot be found");
    if (words > left / kWordBytes) {
        return fail(ErrorKind::Truncated, header,
                    "truncated: record of " + std::to_string(words * kWordBytes) + " bytes, " +
                        std::to_string(left) + " left in the input");
    }
    const std::size_t size = static_cast<std::size_t>(words) * kWordBytes;
    RawRecord rec{base_ + pos_, header, data_.subspan(pos_, size)};
    pos_ += size;
    return std::optional<RawRecord>{rec};
}

}  // namespace apcgate::collectors::fxt
