#include "collectors/xray/fdr_tokenizer.hpp"

#include <cstdio>

#include "collectors/xray/fdr_record_decode.hpp"

namespace apcgate::collectors::xray {

FdrTokenizer::FdrTokenizer(std::span<const std::uint8_t> data, std::uint64_t base_offset,
                           FdrFormat format, const std::string& input)
    : reader_(data, format.endian, base_offset, input), format_(format), input_(input) {}

FdrTokenizer::Step FdrTokenizer::fail(ErrorKind error_kind, Stat kind, std::string field,
                                      std::string message) {
    error_ = Error::at(error_kind, std::move(message));
    error_.input = input_;
    error_.offset = reader_.offset();
    error_.record = std::string(stat_name(kind));
    error_.field = std::move(field);
    return Step::Error;
}

FdrTokenizer::Step FdrTokenizer::cut(FdrKind kind, std::uint64_t missing, std::string field,
                                     std::string message) {
    missing_ = missing;
    missing_typed_event_ = kind == FdrKind::TypedEvent;
    return fail(ErrorKind::Truncated, stat_of(kind), std::move(field), std::move(message));
}

FdrTokenizer::Step FdrTokenizer::next(FdrToken& out) {
    if (reader_.at_end()) return Step::End;
    const auto rest = reader_.rest();
    const std::size_t left = rest.size();
    out.offset = reader_.offset();
    out.payload = {};
    if (!is_metadata_byte(rest[0], format_.bits)) {
        if (left < kFunctionRecordSize) {
            return cut(FdrKind::Function, kFunctionRecordSize - left, {},
                       "partial record: " + std::to_string(left) + " of " +
                           std::to_string(kFunctionRecordSize) + " bytes before the buffer ends");
        }
        out.kind = FdrKind::Function;
        out.bytes = reader_.bytes(kFunctionRecordSize, "function record");
        return Step::Token;
    }
    const std::uint8_t kind = metadata_kind(rest[0], format_.bits);
    if (kind >= kMetadataKinds) {
        char first[8];
        std::snprintf(first, sizeof first, "0x%02x", rest[0]);
        return fail(
            ErrorKind::Malformed, Stat::Metadata, "kind",
            "unknown metadata record kind " + std::to_string(kind) + " (first byte " + first + ")");
    }
    out.kind = static_cast<FdrKind>(kind);
    const Stat stat = stat_of(out.kind);
    if (left < kMetadataRecordSize) {
        return cut(out.kind, kMetadataRecordSize - left, {},
                   "partial record: " + std::to_string(left) + " of " +
                       std::to_string(kMetadataRecordSize) + " bytes before the buffer ends");
    }
    const auto head = rest.first(kMetadataRecordSize);
    if (out.kind == FdrKind::CustomEvent || out.kind == FdrKind::TypedEvent) {
        const std::int32_t size = event_payload_size(head, format_);
        if (size <= 0)
            return fail(ErrorKind::Malformed, stat, "size",
                        "event size " + std::to_string(size) + " is not positive");
        const auto payload_left = left - kMetadataRecordSize;
        if (static_cast<std::uint64_t>(size) > payload_left) {
            return cut(out.kind, static_cast<std::uint64_t>(size) - payload_left, "size",
                       "partial record: its " + std::to_string(size) + "-byte payload has " +
                           std::to_string(payload_left) + " bytes before the buffer ends");
        }
        out.bytes = reader_.bytes(kMetadataRecordSize, "marker");
        out.payload = reader_.bytes(static_cast<std::size_t>(size), "payload");
        return Step::Token;
    }
    out.bytes = reader_.bytes(kMetadataRecordSize, "metadata record");
    return Step::Token;
}

}  // namespace apcgate::collectors::xray
