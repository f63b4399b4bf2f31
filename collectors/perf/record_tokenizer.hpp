// Splits the bytes copied out of one perf ring buffer into records (header + body), without
// interpreting bodies. Grammar (perf_event_open(2), "MMAP layout"; linux/perf_event.h
// struct perf_event_header):
//
//   stream  := record*
//   record  := u32 type, u16 misc, u16 size, u8 body[size - 8]
//
// A size below 8 or past the end of the bytes cannot be skipped over (the next record's start
// is unknown), so tokenizing stops there with an error naming the stream offset; the records
// before it are kept. No I/O: the ring reader hands the bytes in.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::perf {

inline constexpr std::size_t kHeaderBytes = 8;

struct RawRecord {
    std::uint64_t offset = 0;  // of the header, in the ring's byte stream
    std::uint32_t type = 0;
    std::uint16_t misc = 0;
    std::span<const std::uint8_t> body;  // size - 8 bytes after the header
};

class RecordTokenizer {
  public:
    // `base_offset` is the stream position of bytes[0] (the ring's data_tail when copied).
    RecordTokenizer(std::span<const std::uint8_t> bytes, std::uint64_t base_offset);

    // The next record; nullopt at the end of the bytes or at the first malformed header.
    std::optional<RawRecord> next();
    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    [[nodiscard]] std::size_t consumed() const { return pos_; }

  private:
    std::span<const std::uint8_t> bytes_;
    std::uint64_t base_;
    std::size_t pos_ = 0;
    std::optional<Error> error_;
};

}  // namespace apcgate::collectors::perf
