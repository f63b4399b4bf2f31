#include "fdr_builder.hpp"

#include <algorithm>

namespace apcgate::xray_test {

void Bytes::put(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
        const int shift = endian_ == wire_endian::Little ? 8 * i : 8 * (n - 1 - i);
        out.push_back(static_cast<std::uint8_t>(v >> shift));
    }
}

void write_header(Bytes& b, std::uint16_t version, std::uint16_t type, std::uint64_t frequency,
                  std::uint64_t buffer_size, bool msb_flags) {
    b.u16(version);
    b.u16(type);
    b.u8(msb_flags ? 0xC0 : 0x03);
    b.zeros(3);
    b.u64(frequency);
    b.u64(buffer_size);
    b.u64(0);
}

FdrBuilder::FdrBuilder(std::uint16_t version, wire_endian endian, BitOrder bits,
                       std::uint64_t frequency, std::uint64_t buffer_size)
    : version_(version),
      endian_(endian),
      bits_(bits),
      buffer_size_(buffer_size),
      file_(endian),
      buffer_(endian) {
    write_header(file_, version, 1, frequency, buffer_size, bits == BitOrder::MsbFirst);
}

std::uint8_t FdrBuilder::first_byte(std::uint8_t kind) const {
    return bits_ == BitOrder::LsbFirst ? static_cast<std::uint8_t>((kind << 1) | 1U)
                                       : static_cast<std::uint8_t>(0x80U | kind);
}

FdrBuilder& FdrBuilder::metadata(std::uint8_t kind, const std::vector<std::uint8_t>& data) {
    buf().u8(first_byte(kind));
    for (std::size_t i = 0; i < 15; ++i) buf().u8(i < data.size() ? data[i] : 0);
    return *this;
}

FdrBuilder& FdrBuilder::begin_buffer(std::int32_t tid, std::int32_t pid_value, std::uint16_t cpu,
                                     std::uint64_t tsc) {
    buf().u8(first_byte(0));
    buf().u32(static_cast<std::uint32_t>(tid));
    buf().zeros(11);
    wall_clock(wall_seconds_, wall_micros_);
    if (version_ >= 3) pid(pid_value);
    return new_cpu(cpu, tsc);
}

FdrBuilder& FdrBuilder::function(std::uint8_t action, std::uint32_t f, std::uint32_t delta) {
    const std::uint32_t word =
        bits_ == BitOrder::LsbFirst
            ? ((f << 4) | (static_cast<std::uint32_t>(action & 7U) << 1))
            : ((static_cast<std::uint32_t>(action & 7U) << 28) | (f & 0x0FFFFFFFU));
    buf().u32(word);
    buf().u32(delta);
    return *this;
}

FdrBuilder& FdrBuilder::new_cpu(std::uint16_t cpu, std::uint64_t tsc) {
    buf().u8(first_byte(2));
    buf().u16(cpu);
    buf().u64(tsc);
    buf().zeros(5);
    return *this;
}

FdrBuilder& FdrBuilder::tsc_wrap(std::uint64_t tsc) {
    buf().u8(first_byte(3));
    buf().u64(tsc);
    buf().zeros(7);
    return *this;
}

FdrBuilder& FdrBuilder::argument(std::uint64_t value) {
    buf().u8(first_byte(6));
    buf().u64(value);
    buf().zeros(7);
    return *this;
}

FdrBuilder& FdrBuilder::pid(std::int32_t pid_value) {
    buf().u8(first_byte(9));
    buf().u32(static_cast<std::uint32_t>(pid_value));
    buf().zeros(11);
    return *this;
}

FdrBuilder& FdrBuilder::wall_clock(std::uint64_t seconds, std::uint32_t micros) {
    buf().u8(first_byte(4));
    buf().u64(seconds);
    buf().u32(micros);
    buf().zeros(3);
    return *this;
}

FdrBuilder& FdrBuilder::custom(const std::string& payload, std::uint64_t tsc, std::uint16_t cpu) {
    buf().u8(first_byte(5));
    buf().u32(static_cast<std::uint32_t>(payload.size()));
    if (version_ >= 5) {
        buf().u32(static_cast<std::uint32_t>(tsc));
        buf().zeros(7);
    } else {
        buf().u64(tsc);
        if (version_ == 4) {
            buf().u16(cpu);
            buf().zeros(1);
        } else {
            buf().zeros(3);
        }
    }
    buf().raw(payload);
    return *this;
}

FdrBuilder& FdrBuilder::typed(std::uint16_t type, const std::string& payload, std::int32_t delta) {
    buf().u8(first_byte(8));
    buf().u32(static_cast<std::uint32_t>(payload.size()));
    buf().u32(static_cast<std::uint32_t>(delta));
    buf().u16(type);
    buf().zeros(5);
    buf().raw(payload);
    return *this;
}

FdrBuilder& FdrBuilder::end_of_buffer() {
    return metadata(1);
}

FdrBuilder& FdrBuilder::raw(const std::vector<std::uint8_t>& bytes) {
    buf().out.insert(buf().out.end(), bytes.begin(), bytes.end());
    return *this;
}

FdrBuilder& FdrBuilder::end_buffer(std::int64_t extents_adjust) {
    if (version_ >= 2) {
        file_.u8(first_byte(7));
        const auto extents = static_cast<std::int64_t>(buffer_.out.size()) + extents_adjust;
        file_.u64(static_cast<std::uint64_t>(extents));
        file_.zeros(7);
        // Like compiler-rt's flush, write exactly the extents' bytes when they are short.
        const auto n = std::min<std::size_t>(
            buffer_.out.size(), static_cast<std::size_t>(std::max<std::int64_t>(extents, 0)));
        file_.out.insert(file_.out.end(), buffer_.out.begin(),
                         buffer_.out.begin() + static_cast<std::ptrdiff_t>(n));
    } else {
        file_.out.insert(file_.out.end(), buffer_.out.begin(), buffer_.out.end());
        // Junk after the EndOfBuffer record, as a reused buffer holds.
        for (std::size_t i = buffer_.out.size(); i < buffer_size_; ++i)
            file_.u8(static_cast<std::uint8_t>(0xA5 ^ i));
    }
    buffer_.out.clear();
    return *this;
}

BasicBuilder::BasicBuilder(std::uint16_t version, wire_endian endian, std::uint64_t frequency)
    : file_(endian) {
    write_header(file_, version, 0, frequency, 0);
}

BasicBuilder& BasicBuilder::record(std::uint8_t action, std::int32_t function, std::uint64_t tsc,
                                   std::uint32_t tid, std::uint32_t pid, std::uint8_t cpu,
                                   std::uint16_t type) {
    file_.u16(type);
    file_.u8(cpu);
    file_.u8(action);
    file_.u32(static_cast<std::uint32_t>(function));
    file_.u64(tsc);
    file_.u32(tid);
    file_.u32(pid);
    file_.zeros(8);
    return *this;
}

BasicBuilder& BasicBuilder::arg(std::int32_t function, std::uint32_t tid, std::uint32_t pid,
                                std::uint64_t value) {
    file_.u16(1);
    file_.zeros(2);
    file_.u32(static_cast<std::uint32_t>(function));
    file_.u32(tid);
    file_.u32(pid);
    file_.u64(value);
    file_.zeros(8);
    return *this;
}

}  // namespace apcgate::xray_test
