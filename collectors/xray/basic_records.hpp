// Basic ("naive") mode records (compiler-rt xray_records.h XRayRecord / XRayArgPayload, read
// like llvm-xray's Trace.cpp loadNaiveFormatLog). After the 32-byte file header the log is a
// sequence of 32-byte records in the writer's byte order; each thread's records are in time
// order, and threads' runs of records interleave as their buffers were flushed:
//
//   Log := Header (Record ArgPayload*)*
//   Record (record_type 0):  u16 record_type, u8 cpu, u8 action, i32 function id, u64 tsc,
//                            u32 tid, u32 pid (v3; 0 before), 8 bytes padding
//                            action: 0 Entry, 1 Exit, 2 TailExit, 3 EntryArgs
//   ArgPayload (type 1, v2+): u16 record_type, 2 padding, i32 function id, u32 tid, u32 pid,
//                            u64 argument, 8 bytes padding — the argument of the entry before
//                            it, which must have the same function, thread (and v3: process)
#pragma once

#include <cstdint>

#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::xray {

inline constexpr std::size_t kBasicRecordSize = 32;

enum class BasicRecordType : std::uint16_t { Normal = 0, ArgPayload = 1 };

struct BasicRecord {
    std::uint8_t cpu = 0;
    std::uint8_t action = 0;
    std::int32_t function = 0;
    std::uint64_t tsc = 0;
    std::uint32_t tid = 0;
    std::uint32_t pid = 0;
};

struct BasicArgRecord {
    std::int32_t function = 0;
    std::uint32_t tid = 0;
    std::uint32_t pid = 0;
    std::uint64_t argument = 0;
};

// Each takes a record of kBasicRecordSize bytes the caller has bounds-checked.
inline std::uint16_t basic_record_type(const std::uint8_t* p, wire::Endian e) {
    return wire::load_u16(p, e);
}

inline BasicRecord decode_basic_record(const std::uint8_t* p, wire::Endian e) {
    BasicRecord r;
    r.cpu = p[2];
    r.action = p[3];
    r.function = static_cast<std::int32_t>(wire::load_u32(p + 4, e));
    r.tsc = wire::load_u64(p + 8, e);
    r.tid = wire::load_u32(p + 16, e);
    r.pid = wire::load_u32(p + 20, e);
    return r;
}

inline BasicArgRecord decode_basic_arg(const std::uint8_t* p, wire::Endian e) {
    BasicArgRecord r;
    r.function = static_cast<std::int32_t>(wire::load_u32(p + 4, e));
    r.tid = wire::load_u32(p + 8, e);
    r.pid = wire::load_u32(p + 12, e);
    r.argument = wire::load_u64(p + 16, e);
    return r;
}

}  // namespace apcgate::collectors::xray
