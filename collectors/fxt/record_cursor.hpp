// Reads the atoms of one record (spec "Encoding primitives"): words in the archive's byte order,
// zero-padded streams, string refs and thread refs resolved through the provider's tables, and
// argument lists (spec "Argument types"):
//
//   argument     := arg-header-word [name-stream] [value-words | value-stream]
//   arg header   := [0..3] type | [4..15] size in words, header included | [16..31] name ref
//                   | [32..63] value of Int32/UInt32/Bool, value ref of String
//   value word   := Int64, UInt64, Double, Pointer, Koid (one word after the name stream)
//
// Every read is bounds-checked against the record's bytes. A read that fits is an inline load
// (protocol/wire/fixed_load.hpp); the first one that does not, and every caller-detected problem,
// goes to the one ByteReader over the record, made then and positioned where the cursor is, which
// records the failure with its offset and field; it sticks, and every later read goes through that
// reader. An argument of a type this reader does not know is skipped by its size, as the spec
// allows.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/records.hpp"
#include "collectors/fxt/tokenizer.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::fxt {

class RecordCursor {
  public:
    // Positions after the header word.
    RecordCursor(const RawRecord& raw, wire::Endian endian, const ProviderTables& tables);

    [[nodiscard]] std::uint64_t header() const { return header_; }
    // Bits lo..hi of the header word.
    [[nodiscard]] std::uint64_t field(unsigned lo, unsigned hi) const {
        return bits(header_, lo, hi);
    }

    std::uint64_t word(std::string_view field) {
        if (!reader_ && data_.size() - pos_ >= kWordBytes) {
            const std::uint64_t v = wire::load_u64(data_.data() + pos_, endian_);
            pos_ += kWordBytes;
            return v;
        }
        return checked_word(field);
    }
    // A stream of `length` bytes padded to 8.
    std::string_view stream(std::size_t length, std::string_view field);
    // A string ref: empty, table entry, or an inline stream read here.
    std::string_view string_ref(std::uint16_t ref, std::string_view field);
    // A thread ref: table entry, or (ref 0) a process and a thread koid word read here.
    ThreadKoids thread_ref(std::uint8_t ref, std::string_view field);
    // `count` arguments into `out`.
    void args(unsigned count, ArgList& out);

    void fail(std::string message, std::string_view field) {
        reader().fail(std::move(message), field);
    }
    // A problem with a header field: reported at the record's first byte.
    void fail_header(std::string message, std::string_view field) {
        reader().seek(0);
        reader_->fail(std::move(message), field);
    }
    [[nodiscard]] bool ok() const { return !reader_ || reader_->ok(); }
    // The failure, named after this record's kind.
    Error take_error();
    [[nodiscard]] const ProviderTables& tables() const { return tables_; }

  private:
    bool arg(Arg& out);  // false when the argument was skipped
    // The reader, made at the cursor's position when first needed.
    wire::ByteReader& reader();
    std::uint64_t checked_word(std::string_view field);
    void seek(std::size_t pos);

    std::span<const std::uint8_t> data_;  // the record, header included
    std::uint64_t offset_;                // of data_[0] in the input
    wire::Endian endian_;
    std::size_t pos_ = kWordBytes;  // after the header word
    std::optional<wire::ByteReader> reader_;
    const ProviderTables& tables_;
    std::uint64_t header_;
};

}  // namespace apcgate::collectors::fxt
