// A perf_event_attr as a PEA message carries it: the kernel's struct, byte for byte, `size`
// bytes long (its own `size` field, at byte 4, says how many). Only the fields that decide a
// record's layout and the capture's clock are read out; the bytes are kept as they came.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::perf_framing {

// The first published attr (PERF_ATTR_SIZE_VER0) is the smallest a kernel accepts; the layout
// fields this decoder needs up to sample_regs_intr need the VER4 size or the defaults below.
inline constexpr std::uint32_t kMinAttrSize = 64;
// A larger value is taken as corruption (the kernel's struct is 136-144 bytes today).
inline constexpr std::uint32_t kMaxAttrSize = 4096;

struct PerfAttr {
    std::uint32_t type = 0;
    std::uint32_t size = 0;
    std::uint64_t config = 0;
    std::uint64_t sample_period = 0;
    std::uint64_t sample_type = 0;
    std::uint64_t read_format = 0;
    std::uint64_t flags = 0;  // the bit-field word: disabled, inherit, ..., sample_id_all, ...
    std::uint64_t branch_sample_type = 0;
    std::uint64_t sample_regs_user = 0;
    std::uint32_t sample_stack_user = 0;
    std::int32_t clockid = 0;
    std::uint64_t sample_regs_intr = 0;
    std::vector<std::uint8_t> bytes;  // all `size` bytes, as the kernel was given them

    [[nodiscard]] bool flag(unsigned bit) const { return ((flags >> bit) & 1u) != 0; }
    [[nodiscard]] bool sample_id_all() const { return flag(kSampleIdAllBit); }
    [[nodiscard]] bool use_clockid() const { return flag(kUseClockidBit); }

    // Bit numbers in the flags word (include/uapi/linux/perf_event.h, struct perf_event_attr).
    static constexpr unsigned kDisabledBit = 0;
    static constexpr unsigned kInheritBit = 1;
    static constexpr unsigned kPinnedBit = 2;
    static constexpr unsigned kMmapBit = 8;
    static constexpr unsigned kCommBit = 9;
    static constexpr unsigned kFreqBit = 10;
    static constexpr unsigned kTaskBit = 13;
    static constexpr unsigned kWatermarkBit = 14;
    static constexpr unsigned kSampleIdAllBit = 18;
    static constexpr unsigned kMmap2Bit = 23;
    static constexpr unsigned kCommExecBit = 24;
    static constexpr unsigned kUseClockidBit = 25;
    static constexpr unsigned kContextSwitchBit = 26;
    static constexpr unsigned kBuildIdBit = 34;
};

// Reads an attr from the start of `bytes`; `bytes` may be longer (the attr's `size` decides).
// Fails when the size field is below kMinAttrSize or above kMaxAttrSize or the bytes end first.
Result<PerfAttr> parse_perf_attr(std::span<const std::uint8_t> bytes, std::uint64_t base_offset);

// Bytes of the sample_id trailer that `sample_id_all` appends to every non-sample record.
std::size_t sample_id_trailer_bytes(const PerfAttr& attr);

}  // namespace apcgate::perf_framing
