// FDR mode records as types (FDR spec "Data Section"; versions 2-5 as compiler-rt writes them).
// After the 32-byte file header the log is a stream of 8-byte function records and 16-byte
// metadata records, some followed by a payload. The first byte says which:
//
//   function record (8 bytes), one u32 in the writer's byte order, then a u32 tsc_delta:
//     little-endian writer: bit 0 = 0, bits 1..3 action, bits 4..31 function id
//     big-endian writer:    bit 31 = 0, bits 28..30 action, bits 0..27 function id
//     action: 0 Entry, 1 Exit, 2 TailExit, 3 EntryArgs (CallArgument records follow)
//   metadata record (16 bytes): byte 0 = discriminant 1 + 7-bit kind (kind = b >> 1 on
//     little-endian writers, b & 0x7f on big-endian ones), then 15 data bytes:
//     kind 0 NewBuffer      i32 tid                       (v1 page says 2 bytes; writers use 4)
//     kind 1 EndOfBuffer    -                             (v1 only: the buffer's rest is junk)
//     kind 2 NewCPUId       u16 cpu, u64 absolute tsc
//     kind 3 TSCWrap        u64 absolute tsc
//     kind 4 WallClockTime  u64 seconds, u32 micro(nano)seconds
//     kind 5 CustomEvent    i32 size, then v1-4: u64 absolute tsc (+ u16 cpu in v4);
//                           v5: i32 tsc delta; then `size` payload bytes
//     kind 6 CallArgument   u64 argument
//     kind 7 BufferExtents  u64 bytes of records in this buffer (v2+: starts every buffer)
//     kind 8 TypedEvent     i32 size, i32 tsc delta, u16 event type; then `size` bytes (v5)
//     kind 9 Pid            i32 pid (v3+)
//
// Grammar (v1 page, extended by the versions): Log := Header Buffer*;
//   Buffer := [BufferExtents] NewBuffer WallClockTime [Pid] NewCPUId Body* [EndOfBuffer junk]
//   Body := NewCPUId | TSCWrap | Function CallArgument* | CustomEvent | TypedEvent
#pragma once

#include <cstdint>
#include <span>

#include "collectors/xray/xray_stats.hpp"
#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::xray {

inline constexpr std::size_t kFunctionRecordSize = 8;
inline constexpr std::size_t kMetadataRecordSize = 16;
// The CPUs a log can name. The records have 16 bits for a CPU, but every LLVM runtime reads it
// into 8 (compiler-rt's readTSC(uint8_t &CPU): rdtscp's TSC_AUX on x86-64, 0 elsewhere), so a
// CPU from 256 up was written by no runtime: it is a corrupt field, never a core to declare.
inline constexpr std::uint32_t kCpuLimit = 256;

// Metadata kinds by their number, then function records.
enum class FdrKind : std::uint8_t {
    NewBuffer = 0,
    EndOfBuffer = 1,
    NewCpuId = 2,
    TscWrap = 3,
    WallClock = 4,
    CustomEvent = 5,
    CallArgument = 6,
    BufferExtents = 7,
    TypedEvent = 8,
    Pid = 9,
    Function = 10,
};
inline constexpr std::uint8_t kMetadataKinds = 10;

Stat stat_of(FdrKind k);

// How the writer laid out its bitfields (see the grammar above).
enum class BitOrder : std::uint8_t { LsbFirst, MsbFirst };

struct FdrFormat {
    std::uint16_t version = 5;
    wire::Endian endian = wire::Endian::Little;
    BitOrder bits = BitOrder::LsbFirst;
};

enum class FunctionAction : std::uint8_t { Entry = 0, Exit = 1, TailExit = 2, EntryArgs = 3 };

struct FunctionRecord {
    std::uint8_t action = 0;  // FunctionAction, or 4..7 (invalid)
    std::uint32_t function = 0;
    std::uint32_t tsc_delta = 0;
};
struct NewBufferRecord {
    std::int32_t tid = 0;
};
struct NewCpuIdRecord {
    std::uint16_t cpu = 0;
    std::uint64_t tsc = 0;
};
struct TscWrapRecord {
    std::uint64_t tsc = 0;
};
struct WallClockRecord {
    std::uint64_t seconds = 0;
    std::uint32_t fraction = 0;  // microseconds per the spec (LLVM names it nanos)
};
struct CustomEventRecord {
    std::int32_t size = 0;
    bool has_delta = false;  // v5: tsc_delta is relative; before: tsc is absolute
    std::int32_t tsc_delta = 0;
    std::uint64_t tsc = 0;
    bool has_cpu = false;  // v4
    std::uint16_t cpu = 0;
};
struct CallArgumentRecord {
    std::uint64_t value = 0;
};
struct BufferExtentsRecord {
    std::uint64_t size = 0;
};
struct TypedEventRecord {
    std::int32_t size = 0;
    std::int32_t tsc_delta = 0;
    std::uint16_t type = 0;
};
struct PidRecord {
    std::int32_t pid = 0;
};

// One framed record: its kind, where it is, its fixed-size bytes and any payload.
struct FdrToken {
    FdrKind kind = FdrKind::Function;
    std::uint64_t offset = 0;               // of bytes[0] in the input
    std::span<const std::uint8_t> bytes;    // 8 or 16 bytes
    std::span<const std::uint8_t> payload;  // custom and typed events
};

}  // namespace apcgate::collectors::xray
