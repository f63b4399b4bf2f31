// Fixed-width loads for the hot loops, from bytes the caller has already bounds-checked against
// a ByteReader span (a whole 8- or 32-byte record at a time): memcpy and a byte swap, never a
// pointer cast over input bytes.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::xray {

inline bool needs_swap(wire::Endian e) {
    return (e == wire::Endian::Little) != (std::endian::native == std::endian::little);
}

inline std::uint16_t load_u16(const std::uint8_t* p, wire::Endian e) {
    std::uint16_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap16(v) : v;
}

inline std::uint32_t load_u32(const std::uint8_t* p, wire::Endian e) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap32(v) : v;
}

inline std::uint64_t load_u64(const std::uint8_t* p, wire::Endian e) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return needs_swap(e) ? __builtin_bswap64(v) : v;
}

}  // namespace apcgate::collectors::xray
