// Annotate frames read in place, for readers that see every annotation of a large capture once
// (apcgate report): decode_frame copies each message's bytes and EventRebuilder parses each
// annotation into a model event with its own strings, which costs several times what converting
// the trace did. Here each message is a view into the frame, and the common case — a message that
// is exactly one uncoloured UTF-8 string annotation on a channel, as the encoder writes spans —
// is recognised without copying; anything else goes the general way (decode_frame and
// EventRebuilder), which reads the same bytes to the same events.
//   Annotate frame   code:p32 { core:p32 tid:p32 ts:p64 size:p32 bytes[size] }*
//   UTF-8 String     0x1C 0x06 channel:i32 len:i16 utf8[len]      (no colour: utf8[0] != 0x1B)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/encoder.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/packed_unchecked.hpp"

namespace apcgate::apc {

struct AnnotateView {
    std::uint64_t offset = 0;  // of the message in the input
    std::int32_t core = 0;
    std::int32_t tid = 0;
    std::int64_t ts = 0;
    std::span<const std::uint8_t> bytes;  // into the frame body
};

// The frame code of a frame body; nullopt when it does not decode.
std::optional<FrameType> frame_type_of(std::span<const std::uint8_t> body);

namespace detail {

// The longest message header read without the checked reader: core, tid and size of up to 5
// bytes each, the timestamp of up to 9.
inline constexpr std::ptrdiff_t kLongestFastHeader = 5 + 5 + 9 + 5;

inline bool packed32_unchecked(const std::uint8_t*& p, std::int32_t& out) {
    std::int64_t v = 0;
    if (!wire::packed_unchecked(p, 5, v) || v < INT32_MIN || v > INT32_MAX) return false;
    out = static_cast<std::int32_t>(v);
    return true;
}

// The messages from `pos` on whose header lies wholly inside the body, read without a bounds
// check per byte: a reader of millions of annotations spends most of its time here. Stops at the
// first message it cannot read so (near the end of the body, a value out of range, a size past
// the end) and returns its position: the checked reader reads the rest the same way, or says
// why it does not decode.
template <typename Each>
std::size_t scan_messages_unchecked(std::span<const std::uint8_t> body, std::size_t pos,
                                    std::uint64_t file_offset, Each& each) {
    const std::uint8_t* const begin = body.data();
    const std::uint8_t* const end = begin + body.size();
    const std::uint8_t* p = begin + pos;
    while (end - p >= kLongestFastHeader) {
        const std::uint8_t* q = p;
        AnnotateView v;
        std::int32_t size = 0;
        if (!packed32_unchecked(q, v.core) || !packed32_unchecked(q, v.tid) ||
            !wire::packed_unchecked(q, 9, v.ts) || !packed32_unchecked(q, size) || size < 0 ||
            size > end - q)
            break;
        v.offset = file_offset + static_cast<std::uint64_t>(p - begin);
        v.bytes = {q, static_cast<std::size_t>(size)};
        each(v);
        p = q + size;
    }
    return static_cast<std::size_t>(p - begin);
}

}  // namespace detail

// Calls `each(const AnnotateView&)` for every message of an Annotate frame body, in order. Returns
// false when the body does not decode (the caller then decodes it with decode_frame, which says
// why); messages before the problem have been seen.
template <typename Each>
bool scan_annotate_frame(std::span<const std::uint8_t> body, std::uint64_t file_offset,
                         Each&& each) {
    wire::ByteReader r(body, wire::Endian::Little, file_offset);
    if (r.packed32("frame code") != static_cast<std::int32_t>(FrameType::Annotate) || !r.ok())
        return false;
    r.seek(detail::scan_messages_unchecked(body, r.pos(), file_offset, each));
    while (r.ok() && !r.at_end()) {
        AnnotateView v;
        v.offset = r.offset();
        v.core = r.packed32("core");
        v.tid = r.packed32("tid");
        v.ts = r.packed64("timestamp");
        const std::int32_t size = r.packed32("size");
        if (!r.ok() || size < 0) return false;
        v.bytes = r.bytes(static_cast<std::size_t>(size), "body");
        if (!r.ok()) return false;
        each(v);
    }
    return r.ok();
}

struct StringView {
    std::int32_t channel = 0;
    std::string_view text;  // into the bytes
};

// `bytes` when they are exactly one UTF-8 string annotation without colour; nullopt otherwise
// (other annotations, colour, fragments, several annotations in one message).
inline std::optional<StringView> whole_string_annotation(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < 8 || bytes[0] != kAnnotationEscape || bytes[1] != 0x06) return std::nullopt;
    std::uint32_t channel = 0;
    for (int i = 0; i < 4; ++i) channel |= std::uint32_t{bytes[2 + i]} << (8 * i);
    const auto len = static_cast<std::int16_t>(bytes[6] | (bytes[7] << 8));
    if (len < 0 || static_cast<std::size_t>(len) != bytes.size() - 8) return std::nullopt;
    if (len > 0 && bytes[8] == kColorEscape) return std::nullopt;
    return StringView{static_cast<std::int32_t>(channel),
                      {reinterpret_cast<const char*>(bytes.data() + 8),  // NOLINT: bytes as text
                       static_cast<std::size_t>(len)}};
}

}  // namespace apcgate::apc
