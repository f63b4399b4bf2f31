// A packed integer (the protocol's signed LEB128) read without a bounds check per byte, for the
// hot loops of the readers of packed streams (ByteReader::packed64 and the report's Annotate
// scan). The caller knows `max_bytes` bytes are readable at `p`; `max_bytes` is at most 9, so the
// 10th byte's overflow rule never applies here. False when the value is longer: the checked
// reader then reads it the same way or says why it does not decode.
#pragma once

#include <cstdint>

namespace apcgate::wire {

inline bool packed_unchecked(const std::uint8_t*& p, unsigned max_bytes, std::int64_t& out) {
    std::uint64_t value = 0;
    unsigned shift = 0;
    for (unsigned i = 0; i < max_bytes && i < 9; ++i) {
        const std::uint8_t b = p[i];
        value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0) {
            if ((b & 0x40) != 0) value |= ~std::uint64_t{0} << shift;  // sign
            p += i + 1;
            out = static_cast<std::int64_t>(value);
            return true;
        }
    }
    return false;
}

}  // namespace apcgate::wire
