// Fixed-width loads for the converters' hot loops, from bytes the caller has already
// bounds-checked (a whole record at a time against a ByteReader's span): memcpy and a byte swap
// when the input's byte order is not the host's, never a pointer cast over input bytes. Failures
// still go through the ByteReader, so errors keep their offset, record kind and field.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::wire {

inline bool needs_swap(Endian e) {
    return (e == Endian::Little) != (std::endian::native == std::endian::little);
}

inline std::uint16_t load_u16(const std::uint8_t* p, Endian e) {
    std::uint16_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap16(v) : v;
}

inline std::uint32_t load_u32(const std::uint8_t* p, Endian e) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap32(v) : v;
}

inline std::uint64_t load_u64(const std::uint8_t* p, Endian e) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap64(v) : v;
}

}  // namespace apcgate::wire
