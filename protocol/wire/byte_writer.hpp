// Appends the seed's wire types to a byte buffer: packed32/packed64 (signed LEB128), packed
// strings, little-endian fixed-width integers and raw bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace apcgate::wire {

// Largest encodings, useful for reserving space.
inline constexpr std::size_t kMaxPacked32 = 5;
inline constexpr std::size_t kMaxPacked64 = 10;

// Encodes into `out` (at least kMaxPacked64 bytes); returns the number of bytes written.
inline std::size_t encode_packed64(std::int64_t value, std::uint8_t* out) {
    std::size_t n = 0;
    for (;;) {
        const auto byte = static_cast<std::uint8_t>(value & 0x7f);
        value >>= 7;  // arithmetic shift: C++20 defines it for negative values
        const bool done = (value == 0 && (byte & 0x40) == 0) || (value == -1 && (byte & 0x40) != 0);
        if (done) {
            out[n++] = byte;
            return n;
        }
        out[n++] = byte | 0x80;
    }
}

// Appends to any std::vector of bytes (whatever its allocator); ByteWriter is the usual one.
template <class Bytes>
class BasicByteWriter {
  public:
    explicit BasicByteWriter(Bytes& out) : out_(out) {}

    void packed32(std::int32_t v) { packed64(v); }
    void packed64(std::int64_t v) {
        std::uint8_t tmp[kMaxPacked64];
        const std::size_t n = encode_packed64(v, tmp);
        out_.insert(out_.end(), tmp, tmp + n);
    }
    void packed_string(std::string_view s) {
        packed32(static_cast<std::int32_t>(s.size()));
        raw(s);
    }
    void u8(std::uint8_t v) { out_.push_back(v); }
    void le16(std::uint16_t v) { le(v, 2); }
    void le32(std::uint32_t v) { le(v, 4); }
    void le64(std::uint64_t v) { le(v, 8); }
    void raw(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
    void raw(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }

    [[nodiscard]] std::size_t size() const { return out_.size(); }
    Bytes& buffer() { return out_; }

  private:
    void le(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    Bytes& out_;
};

using ByteWriter = BasicByteWriter<std::vector<std::uint8_t>>;

// Overwrites 4 bytes at `pos` with a little-endian int32 (for length prefixes filled in later).
inline void patch_le32(std::vector<std::uint8_t>& buf, std::size_t pos, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) buf[pos + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace apcgate::wire
