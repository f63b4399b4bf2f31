// Splits FXT bytes into records by their header's size field; interprets nothing else and does
// no I/O (the caller hands it the bytes). Spec sections "Records", "Record header", "Large record
// header" and "Archives":
//
//   archive      := record*
//   record       := header-word word{size-1}            size = header[4..15]  (in words, >= 1)
//   large record := header-word word{size-1}            size = header[4..35]  when type == 15
//
//   header word (64-bit, archive byte order):
//     [0..3] type | [4..15] size (or [4..35] for type 15) | [16..63] type-specific fields
//
// The byte order of the words is the archive's: little-endian on every current writer, big-endian
// when the magic record reads backwards (detect_endian). A size of 0 gives no way to find the
// next record and a size past the end is a truncated tail: both end the split with an Error
// (offset and record kind); every record before it has been handed out.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "collectors/fxt/format.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/fixed_load.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::fxt {

struct RawRecord {
    std::uint64_t offset = 0;             // of the header word in the input
    std::uint64_t header = 0;             // the header word in host order
    std::span<const std::uint8_t> bytes;  // the whole record, header included
};

// Little-endian unless the first word is the magic record written big-endian.
wire::Endian detect_endian(std::span<const std::uint8_t> head);
// True when the first word is the magic record in either byte order.
bool starts_with_magic(std::span<const std::uint8_t> head);

class Tokenizer {
  public:
    // `base_offset` is the offset of data[0] in the input, added to every reported offset.
    Tokenizer(std::span<const std::uint8_t> data, wire::Endian endian,
              std::uint64_t base_offset = 0);

    // The next record; nullopt once the data ends on a record boundary. After an Error every
    // call returns nullopt.
    Result<std::optional<RawRecord>> next();

    // The next record when it is whole (its size read, not 0, within the data): true, with the
    // record in `out`. False, and nothing consumed, at the end of the data, past a failure or
    // for a record next() would report: the caller then asks next(). Inline, for the loop every
    // record goes through.
    bool next_whole(RawRecord& out) {
        if (failed_ || data_.size() - pos_ < kWordBytes) return false;
        const std::uint64_t header = wire::load_u64(data_.data() + pos_, endian_);
        const bool large = bits(header, 0, 3) == static_cast<unsigned>(RecordType::LargeRecord);
        const std::uint64_t words = large ? bits(header, 4, 35) : bits(header, 4, 15);
        if (words == 0 || words > (data_.size() - pos_) / kWordBytes) return false;
        const auto size = static_cast<std::size_t>(words) * kWordBytes;
        out = RawRecord{base_ + pos_, header, data_.subspan(pos_, size)};
        pos_ += size;
        return true;
    }

    // Bytes of the data consumed by the records handed out.
    [[nodiscard]] std::size_t position() const { return pos_; }
    // The same, as an offset in the input.
    [[nodiscard]] std::uint64_t offset() const { return base_ + pos_; }
    [[nodiscard]] bool failed() const { return failed_; }

  private:
    Error fail(ErrorKind kind, std::uint64_t header, std::string message);

    std::span<const std::uint8_t> data_;
    wire::Endian endian_;
    std::uint64_t base_;
    std::size_t pos_ = 0;
    bool failed_ = false;
};

}  // namespace apcgate::collectors::fxt
