// One kernel perf record (the ring buffer's `struct perf_event_header` and what follows), read
// with the layout its event's attr selects: sample_type and read_format for PERF_RECORD_SAMPLE,
// the record type's fixed body plus the sample_id trailer (sample_id_all) for the others. A
// record parses only when its fields fill its `size` exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/perf_framing/perf_attr.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::perf_framing {

inline constexpr std::size_t kRecordHeaderBytes = 8;

struct RecordHeader {
    std::uint32_t type = 0;
    std::uint16_t misc = 0;
    std::uint16_t size = 0;
};
RecordHeader record_header(std::uint64_t first_word);

// "SAMPLE", "MMAP2", ...; "type N" for record types this decoder does not know.
std::string record_type_name(std::uint32_t type);

// The PERF_SAMPLE_IDENTIFIER a record carries when every attr sets it with sample_id_all: the
// first word after the header of a SAMPLE, the last word of any other record. nullopt when the
// record is too short to hold one.
std::optional<std::uint64_t> record_identifier(std::span<const std::uint8_t> record);

struct ReadValue {
    std::uint64_t value = 0;
    std::optional<std::uint64_t> id;  // PERF_FORMAT_ID
};

struct PerfRecord {
    RecordHeader header;
    // From SAMPLE fields or the sample_id trailer, when the attr selects them.
    std::optional<std::uint64_t> identifier, time, id, stream_id;
    std::optional<std::uint32_t> pid, tid, cpu;
    std::optional<std::uint64_t> ip, period;
    std::vector<ReadValue> reads;  // PERF_SAMPLE_READ (group or single)
    std::uint64_t callchain_depth = 0;
    std::span<const std::uint8_t> callchain;  // callchain_depth little-endian u64 ips

    std::span<const std::uint8_t> raw;  // PERF_SAMPLE_RAW payload (tracepoint bytes)
    // Side-band bodies.
    std::uint32_t body_pid = 0, body_tid = 0;                // FORK/EXIT/COMM/MMAP*/SWITCH_CPU_WIDE
    std::uint32_t parent_pid = 0, parent_tid = 0;            // FORK/EXIT
    std::string_view text;                                   // COMM comm, MMAP/MMAP2 filename
    std::uint64_t map_addr = 0, map_len = 0, map_pgoff = 0;  // MMAP/MMAP2
    std::uint64_t lost = 0;                                  // LOST, LOST_SAMPLES
};

// Parses `record` (its header included) with `attr`. The error's offset is the byte within the
// record where the layout and the size disagree; the caller places the record in its file.
Result<PerfRecord> parse_record(std::span<const std::uint8_t> record, const PerfAttr& attr);

}  // namespace apcgate::perf_framing
