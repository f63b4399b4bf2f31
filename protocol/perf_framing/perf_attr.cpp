#include "protocol/perf_framing/perf_attr.hpp"

#include <linux/perf_event.h>

#include <bit>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::perf_framing {

Result<PerfAttr> parse_perf_attr(std::span<const std::uint8_t> bytes, std::uint64_t base_offset) {
    wire::ByteReader head(bytes, wire::Endian::Little, base_offset);
    head.set_record("perf_event_attr");
    head.u32("type");
    const std::uint32_t size = head.u32("size");
    if (!head.ok()) return head.take_error();
    if (size < kMinAttrSize || size > kMaxAttrSize) {
        head.seek(4);
        head.fail("attr size " + std::to_string(size) + " outside " + std::to_string(kMinAttrSize) +
                      ".." + std::to_string(kMaxAttrSize),
                  "size");
        return head.take_error();
    }
    if (bytes.size() < size) {
        head.fail("attr says " + std::to_string(size) + " bytes, only " +
                      std::to_string(bytes.size()) + " follow",
                  "size");
        return head.take_error();
    }
    // Fields beyond the attr's own size read as zero, as the kernel treats them.
    std::vector<std::uint8_t> padded(bytes.begin(), bytes.begin() + size);
    if (padded.size() < 112) padded.resize(112, 0);
    wire::ByteReader r(padded, wire::Endian::Little, base_offset);
    r.set_record("perf_event_attr");
    PerfAttr a;
    a.type = r.u32("type");
    a.size = r.u32("size");
    a.config = r.u64("config");
    a.sample_period = r.u64("sample_period");
    a.sample_type = r.u64("sample_type");
    a.read_format = r.u64("read_format");
    a.flags = r.u64("flags");
    r.u32("wakeup_events");
    r.u32("bp_type");
    r.u64("config1");
    r.u64("config2");
    a.branch_sample_type = r.u64("branch_sample_type");
    a.sample_regs_user = r.u64("sample_regs_user");
    a.sample_stack_user = r.u32("sample_stack_user");
    a.clockid = r.i32("clockid");
    a.sample_regs_intr = r.u64("sample_regs_intr");
    if (!r.ok()) return r.take_error();
    a.bytes.assign(bytes.begin(), bytes.begin() + size);
    return a;
}

std::size_t sample_id_trailer_bytes(const PerfAttr& attr) {
    if (!attr.sample_id_all()) return 0;
    constexpr std::uint64_t kTrailerFields = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
                                             PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
                                             PERF_SAMPLE_IDENTIFIER;
    return 8u * static_cast<std::size_t>(std::popcount(attr.sample_type & kTrailerFields));
}

}  // namespace apcgate::perf_framing
