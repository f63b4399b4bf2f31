// A word of an FXT record, from bytes the caller has already bounds-checked (the record cursor
// against its record, the tokenizer against its data): memcpy and a byte swap when the archive's
// byte order is not the host's, never a pointer cast over input bytes. The hot loops read every
// word through this instead of a ByteReader call each; failures still go through the ByteReader.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::fxt {

inline std::uint64_t load_word(const std::uint8_t* p, wire::Endian e) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    const bool swap = (e == wire::Endian::Little) != (std::endian::native == std::endian::little);
    return swap ? __builtin_bswap64(v) : v;
}

}  // namespace apcgate::collectors::fxt
