#include "protocol/wire/byte_reader.hpp"

#include <string>

#include "protocol/wire/fixed_load.hpp"
#include "protocol/wire/packed_unchecked.hpp"

namespace apcgate::wire {

ByteReader::ByteReader(std::span<const std::uint8_t> data, Endian endian, std::uint64_t base_offset,
                       std::string input)
    : data_(data), endian_(endian), base_(base_offset), input_(std::move(input)) {}

void ByteReader::fail_at(std::size_t pos, ErrorKind kind, std::string message,
                         std::string_view field) {
    if (error_) return;  // the first error sticks
    Error e = Error::at(kind, std::move(message));
    e.input = input_;
    e.offset = base_ + pos;
    e.record = record_;
    e.field = std::string(field);
    error_ = std::move(e);
}

void ByteReader::fail(ErrorKind kind, std::string message, std::string_view field) {
    fail_at(pos_, kind, std::move(message), field);
}

Error ByteReader::take_error() {
    Error e = error_ ? std::move(*error_) : Error::at(ErrorKind::Internal, "no error");
    error_.reset();
    return e;
}

bool ByteReader::need(std::size_t n, std::string_view field) {
    if (error_) return false;
    if (n > data_.size() - pos_) {
        fail_at(pos_, short_read_,
                "truncated: need " + std::to_string(n) + " bytes, " +
                    std::to_string(data_.size() - pos_) + " left",
                field);
        return false;
    }
    return true;
}

std::uint64_t ByteReader::uint(std::size_t width, std::string_view field) {
    if (width == 0 || width > 8 || !need(width, field)) return 0;
    std::uint64_t v = 0;
    const std::uint8_t* p = data_.data() + pos_;
    // The common widths as one load: most records are read a field at a time through here.
    if (width == 8) {
        pos_ += 8;
        return load_u64(p, endian_);
    }
    if (width == 4) {
        pos_ += 4;
        return load_u32(p, endian_);
    }
    if (endian_ == Endian::Little) {
        for (std::size_t i = width; i-- > 0;) v = (v << 8) | p[i];
    } else {
        for (std::size_t i = 0; i < width; ++i) v = (v << 8) | p[i];
    }
    pos_ += width;
    return v;
}

std::uint8_t ByteReader::u8(std::string_view field) {
    return static_cast<std::uint8_t>(uint(1, field));
}
std::uint16_t ByteReader::u16(std::string_view field) {
    return static_cast<std::uint16_t>(uint(2, field));
}
std::uint32_t ByteReader::u32(std::string_view field) {
    return static_cast<std::uint32_t>(uint(4, field));
}
std::uint64_t ByteReader::u64(std::string_view field) {
    return uint(8, field);
}

std::int64_t ByteReader::packed64(std::string_view field) {
    if (error_) return 0;
    // With room for the longest value, a value of up to 9 bytes needs no check per byte: a
    // capture's reader (apcgate report) decodes several per message, and this is most of it.
    // The 10th byte's overflow rule, and every failure, is the general loop's below.
    if (data_.size() - pos_ >= 10) {
        const std::uint8_t* p = data_.data() + pos_;
        std::int64_t value = 0;
        if (packed_unchecked(p, 9, value)) {
            pos_ = static_cast<std::size_t>(p - data_.data());
            return value;
        }
    }
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    unsigned shift = 0;
    for (int i = 0; i < 10; ++i) {
        if (pos_ >= data_.size()) {
            fail_at(start, short_read_, "truncated packed integer", field);
            pos_ = start;
            return 0;
        }
        const std::uint8_t b = data_[pos_++];
        value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0) {
            if (shift < 64 && (b & 0x40) != 0) value |= ~std::uint64_t{0} << shift;  // sign
            if (i == 9) {
                // Byte 10 carries only bit 63; the rest must be a sign extension of it.
                const bool neg = (b & 0x01) != 0;
                if ((b & 0x7f) != (neg ? 0x7f : 0x00)) {
                    fail_at(start, ErrorKind::Malformed, "packed64 overflows 64 bits", field);
                    pos_ = start;
                    return 0;
                }
            }
            return static_cast<std::int64_t>(value);
        }
    }
    fail_at(start, ErrorKind::Malformed, "packed64 longer than 10 bytes", field);
    pos_ = start;
    return 0;
}

std::int32_t ByteReader::packed32(std::string_view field) {
    if (error_) return 0;
    const std::size_t start = pos_;
    const std::int64_t v = packed64(field);
    if (error_) return 0;
    if (pos_ - start > 5 || v < INT32_MIN || v > INT32_MAX) {
        fail_at(start, ErrorKind::Malformed, "packed32 out of range", field);
        pos_ = start;
        return 0;
    }
    return static_cast<std::int32_t>(v);
}

std::string_view ByteReader::packed_string(std::string_view field) {
    const std::size_t start = pos_;
    const std::int32_t len = packed32(field);
    if (error_) return {};
    if (len < 0) {
        fail_at(start, ErrorKind::Malformed, "negative string length " + std::to_string(len),
                field);
        return {};
    }
    auto b = bytes(static_cast<std::size_t>(len), field);
    return {reinterpret_cast<const char*>(b.data()), b.size()};  // NOLINT: bytes as chars
}

std::span<const std::uint8_t> ByteReader::bytes(std::size_t n, std::string_view field) {
    if (!need(n, field)) return {};
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
}

void ByteReader::skip(std::size_t n, std::string_view field) {
    if (need(n, field)) pos_ += n;
}

void ByteReader::seek(std::size_t pos) {
    if (error_) return;
    if (pos > data_.size()) {
        fail_at(pos_, ErrorKind::Malformed, "seek past end to " + std::to_string(pos), "");
        return;
    }
    pos_ = pos;
}

}  // namespace apcgate::wire
