// Turns framed FDR records (FdrToken, see fdr_records.hpp for the layouts) into their typed
// structs: one job, no framing and no state. Function records are decoded inline because they
// are nine records in ten of a real log; every other kind goes through ByteReader.
#pragma once

#include "collectors/xray/fdr_records.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::xray {

inline bool is_metadata_byte(std::uint8_t first, BitOrder bits) {
    return bits == BitOrder::LsbFirst ? (first & 0x01U) != 0 : (first & 0x80U) != 0;
}

inline std::uint8_t metadata_kind(std::uint8_t first, BitOrder bits) {
    return bits == BitOrder::LsbFirst ? static_cast<std::uint8_t>(first >> 1)
                                      : static_cast<std::uint8_t>(first & 0x7FU);
}

// `p` points at 8 bytes the caller has bounds-checked.
inline FunctionRecord decode_function(const std::uint8_t* p, const FdrFormat& f) {
    const std::uint32_t word = wire::load_u32(p, f.endian);
    FunctionRecord r;
    if (f.bits == BitOrder::LsbFirst) {
        r.action = static_cast<std::uint8_t>((word >> 1) & 0x7U);
        r.function = word >> 4;
    } else {
        r.action = static_cast<std::uint8_t>((word >> 28) & 0x7U);
        r.function = word & 0x0FFFFFFFU;
    }
    r.tsc_delta = wire::load_u32(p + 4, f.endian);
    return r;
}

NewBufferRecord decode_new_buffer(const FdrToken& t, const FdrFormat& f);
NewCpuIdRecord decode_new_cpu_id(const FdrToken& t, const FdrFormat& f);
TscWrapRecord decode_tsc_wrap(const FdrToken& t, const FdrFormat& f);
WallClockRecord decode_wall_clock(const FdrToken& t, const FdrFormat& f);
CustomEventRecord decode_custom_event(const FdrToken& t, const FdrFormat& f);
CallArgumentRecord decode_call_argument(const FdrToken& t, const FdrFormat& f);
BufferExtentsRecord decode_buffer_extents(const FdrToken& t, const FdrFormat& f);
TypedEventRecord decode_typed_event(const FdrToken& t, const FdrFormat& f);
PidRecord decode_pid(const FdrToken& t, const FdrFormat& f);

// The payload size field of a custom or typed event marker (first data field of both), read
// before the payload is framed. `bytes` is the 16-byte marker.
std::int32_t event_payload_size(std::span<const std::uint8_t> bytes, const FdrFormat& f);

}  // namespace apcgate::collectors::xray
