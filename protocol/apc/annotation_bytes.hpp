// Userspace annotation bytes (gator-protocol-v6.8.txt, "Userspace Annotations"): the payload an
// Annotate message carries in fragments. Written from model::AnnotationBody by the encoder,
// measured and parsed back by the decoder side when fragments are reassembled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocol/model/event.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::apc {

// Escape bytes that start a colour and a binary annotation.
inline constexpr std::uint8_t kColorEscape = 0x1B;
inline constexpr std::uint8_t kAnnotationEscape = 0x1C;
// int16 length fields cap strings (colour included) at this many bytes.
inline constexpr std::size_t kMaxAnnotationString = 32767;

// Appends the bytes of `body` to `out`. Returns how many strings were cut (at a UTF-8 boundary)
// to fit an int16 length.
std::size_t append_annotation_bytes(const model::AnnotationBody& body,
                                    std::vector<std::uint8_t>& out);

// How many bytes append_annotation_bytes writes for `body` (lets the encoder write an
// annotation that fits its frame straight into it, without a scratch copy).
std::size_t annotation_bytes_size(const model::AnnotationBody& body);

// Writes the bytes of `body` at `out`, which has room for annotation_bytes_size(body) of them
// (the encoder sizes its frame once for a whole message). Returns what append_annotation_bytes
// returns.
std::size_t write_annotation_bytes(const model::AnnotationBody& body, std::uint8_t* out);

// Size of the first whole annotation at the front of `bytes`: nullopt when more bytes are needed,
// an Error when the bytes cannot start an annotation (unknown 0x1C code, negative length).
Result<std::optional<std::size_t>> annotation_length(std::span<const std::uint8_t> bytes,
                                                     std::uint64_t offset = 0);

// Parses one whole annotation (exactly the bytes annotation_length measured). ASCII lines come
// back as TextAnnotation; nothing comes back as RawAnnotation.
Result<model::AnnotationBody> parse_annotation(std::span<const std::uint8_t> bytes,
                                               std::uint64_t offset = 0);

}  // namespace apcgate::apc
