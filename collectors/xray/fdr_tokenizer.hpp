// Frames FDR records (layouts and grammar in fdr_records.hpp, FDR spec "Data Section"): it
// finds where each record starts and ends and what kind it is, and nothing else — no decoding
// of fields, no state between records, no I/O. A record that does not fit in what is left, a
// metadata kind no version defines or an event with a bad payload size is an error that ends
// tokenizing: the framing is lost, and the caller resumes at the next buffer.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "collectors/xray/fdr_records.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

class FdrTokenizer {
  public:
    enum class Step : std::uint8_t { Token, End, Error };

    // `data` is a buffer's records (or any record stream); `base_offset` is data[0]'s offset in
    // the input, so tokens and errors carry input offsets.
    FdrTokenizer(std::span<const std::uint8_t> data, std::uint64_t base_offset, FdrFormat format,
                 const std::string& input);

    Step next(FdrToken& out);
    // After Step::Error: where, which record kind, what went wrong.
    [[nodiscard]] const Error& error() const { return error_; }
    // After Step::Error for a record the data ends inside of: how many of its bytes are
    // missing (at least; a cut event marker hides its payload size) and whether it is a typed
    // event. 0 for every other error.
    [[nodiscard]] std::uint64_t missing() const { return missing_; }
    [[nodiscard]] bool missing_typed_event() const { return missing_typed_event_; }

    // The bytes not yet framed, for callers that walk runs of function records themselves
    // (they check each record's 8 bytes against this span) and then advance() past them.
    [[nodiscard]] std::span<const std::uint8_t> rest() const { return reader_.rest(); }
    void advance(std::size_t n) { reader_.skip(n, "records"); }
    [[nodiscard]] std::uint64_t offset() const { return reader_.offset(); }
    [[nodiscard]] bool at_end() const { return reader_.at_end(); }
    [[nodiscard]] const FdrFormat& format() const { return format_; }

  private:
    Step fail(ErrorKind error_kind, Stat kind, std::string field, std::string message);
    // A Truncated failure: the data ends `missing` bytes before the record's end.
    Step cut(FdrKind kind, std::uint64_t missing, std::string field, std::string message);

    wire::ByteReader reader_;
    FdrFormat format_;
    std::string input_;
    Error error_;
    std::uint64_t missing_ = 0;
    bool missing_typed_event_ = false;
};

}  // namespace apcgate::collectors::xray
