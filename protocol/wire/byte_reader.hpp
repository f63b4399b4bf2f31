// The one bounds-checked reader for every binary input (network bytes, APC files, trace files).
// Modelled on LLVM's DataExtractor::Cursor: the first failed read records an Error carrying the
// offset, record kind and field, and every later read returns zero without moving. Callers read a
// whole record and check ok() once. Values are assembled with memcpy/shifts, never pointer casts.
// A read past the end (a packed integer cut short included) is ErrorKind::Truncated, so a caller
// reading a stream knows to wait for more bytes, unless the bytes are a whole record (see
// set_whole_record()); a bad value is Malformed unless the caller says.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "protocol/wire/result.hpp"

namespace apcgate::wire {

enum class Endian { Little, Big };

class ByteReader {
  public:
    explicit ByteReader(std::span<const std::uint8_t> data, Endian endian = Endian::Little,
                        std::uint64_t base_offset = 0, std::string input = {});

    // Names the record being read; failures are reported against it.
    void set_record(std::string_view kind) { record_ = kind; }
    void set_endian(Endian e) { endian_ = e; }
    // The bytes are one whole record or frame, cut out by a length already checked: a read past
    // their end is a field that overruns its record (Malformed), not an input that ended.
    void set_whole_record() { short_read_ = ErrorKind::Malformed; }

    std::uint8_t u8(std::string_view field);
    std::uint16_t u16(std::string_view field);
    std::uint32_t u32(std::string_view field);
    std::uint64_t u64(std::string_view field);
    std::int32_t i32(std::string_view field) { return static_cast<std::int32_t>(u32(field)); }
    std::int64_t i64(std::string_view field) { return static_cast<std::int64_t>(u64(field)); }
    // Unsigned integer of 1..8 bytes in the reader's byte order.
    std::uint64_t uint(std::size_t width, std::string_view field);

    // The seed's packed32/packed64 (signed LEB128, at most 5 / 10 bytes, value must fit).
    std::int32_t packed32(std::string_view field);
    std::int64_t packed64(std::string_view field);
    // The seed's string: a packed32 length followed by that many bytes.
    std::string_view packed_string(std::string_view field);

    std::span<const std::uint8_t> bytes(std::size_t n, std::string_view field);
    void skip(std::size_t n, std::string_view field);
    void seek(std::size_t pos);  // absolute position within the span (bounds-checked)

    // Records a caller-detected problem at the current offset, if none yet: a bad value
    // (Malformed), or one of the kind given (a value over a bound of ours is a Limit).
    void fail(std::string message, std::string_view field = {}) {
        fail(ErrorKind::Malformed, std::move(message), field);
    }
    void fail(ErrorKind kind, std::string message, std::string_view field = {});

    [[nodiscard]] bool ok() const { return !error_.has_value(); }
    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    [[nodiscard]] Error take_error();
    [[nodiscard]] std::size_t pos() const { return pos_; }
    [[nodiscard]] std::uint64_t offset() const { return base_ + pos_; }  // absolute in input
    [[nodiscard]] std::size_t remaining() const { return data_.size() - pos_; }
    [[nodiscard]] bool at_end() const { return pos_ >= data_.size(); }
    [[nodiscard]] std::span<const std::uint8_t> rest() const { return data_.subspan(pos_); }
    [[nodiscard]] std::span<const std::uint8_t> data() const { return data_; }

  private:
    bool need(std::size_t n, std::string_view field);
    void fail_at(std::size_t pos, ErrorKind kind, std::string message, std::string_view field);

    std::span<const std::uint8_t> data_;
    std::size_t pos_ = 0;
    Endian endian_;
    std::uint64_t base_;
    std::string input_;
    std::string record_;
    std::optional<Error> error_;
    ErrorKind short_read_ = ErrorKind::Truncated;  // the kind of a read past the end
};

}  // namespace apcgate::wire
