// Builds perf ring-buffer records byte by byte (little-endian, as the kernel writes them on
// this machine) for the parser and mapper tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectors/perf/record_parser.hpp"

namespace apcgate::collectors::perf::testing {

class Bytes {
  public:
    Bytes& u8(std::uint8_t v) { return raw(&v, 1); }
    Bytes& u16(std::uint16_t v) { return le(v, 2); }
    Bytes& u32(std::uint32_t v) { return le(v, 4); }
    Bytes& u64(std::uint64_t v) { return le(v, 8); }
    // NUL-terminated and padded to a multiple of 8 bytes, as COMM and MMAP2 names are.
    Bytes& cstr(const std::string& s) {
        raw(s.data(), s.size());
        u8(0);
        while (b_.size() % 8 != 0) u8(0);
        return *this;
    }
    Bytes& fixed(const std::string& s, std::size_t n) {  // char[n]
        for (std::size_t i = 0; i < n; ++i) u8(i < s.size() ? static_cast<std::uint8_t>(s[i]) : 0);
        return *this;
    }
    Bytes& append(const std::vector<std::uint8_t>& v) {
        b_.insert(b_.end(), v.begin(), v.end());
        return *this;
    }
    [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return b_; }
    [[nodiscard]] std::size_t size() const { return b_.size(); }

  private:
    Bytes& le(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) b_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        return *this;
    }
    Bytes& raw(const void* p, std::size_t n) {
        const auto* c = static_cast<const std::uint8_t*>(p);
        b_.insert(b_.end(), c, c + n);
        return *this;
    }
    std::vector<std::uint8_t> b_;
};

// header + body
inline std::vector<std::uint8_t> record(std::uint32_t type, std::uint16_t misc, const Bytes& body) {
    Bytes r;
    r.u32(type).u16(misc).u16(static_cast<std::uint16_t>(8 + body.size())).append(body.bytes());
    return r.bytes();
}

// The sample_id trailer of the layouts used below: TID, TIME, CPU, IDENTIFIER.
inline Bytes& sample_id(Bytes& b, std::uint32_t pid, std::uint32_t tid, std::uint64_t time,
                        std::uint32_t cpu, std::uint64_t id) {
    return b.u32(pid).u32(tid).u64(time).u32(cpu).u32(0).u64(id);
}

inline constexpr std::uint64_t kSideband =
    kSampleIdentifier | kSampleTid | kSampleTime | kSampleCpu;
inline constexpr std::uint64_t kTracepoint = kSideband | kSampleRaw;
inline constexpr std::uint64_t kSampler = kSideband | kSampleIp | kSamplePeriod | kSampleCallchain;

// A sched_switch payload laid out as this kernel's format file says (see tracepoint tests).
inline std::vector<std::uint8_t> sched_switch_payload(const std::string& prev_comm,
                                                      std::int32_t prev, std::int64_t prev_state,
                                                      const std::string& next_comm,
                                                      std::int32_t next) {
    Bytes p;
    p.u16(372).u8(0).u8(0).u32(static_cast<std::uint32_t>(prev));  // common fields
    p.fixed(prev_comm, 16).u32(static_cast<std::uint32_t>(prev)).u32(120);
    p.u64(static_cast<std::uint64_t>(prev_state));
    p.fixed(next_comm, 16).u32(static_cast<std::uint32_t>(next)).u32(120);
    return p.bytes();
}

}  // namespace apcgate::collectors::perf::testing
