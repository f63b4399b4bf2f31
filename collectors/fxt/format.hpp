// Constants of the Fuchsia trace format (fuchsia.dev, "Fuchsia trace format") and the one
// helper that takes a bit field out of a 64-bit word. Field positions are written [lo .. hi]
// inclusive, as the spec writes them, so a reader can be checked against the spec line by line.
//
// Record header word (spec "Record header"):
//   [0..3] record type   [4..15] size in 8-byte words, header included   [16..63] per type
// Large record header (spec "Large record header", record type 15):
//   [0..3] 15   [4..35] size in words   [36..39] large record type   [40..63] per type
#pragma once

#include <cstddef>
#include <cstdint>

namespace apcgate::collectors::fxt {

// Bits lo..hi (inclusive) of `word`, shifted down.
constexpr std::uint64_t bits(std::uint64_t word, unsigned lo, unsigned hi) {
    const unsigned width = hi - lo + 1;
    const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    return (word >> lo) & mask;
}

// Stream atoms are padded with zeros to the next 8-byte boundary (spec "Atoms").
constexpr std::size_t padded(std::size_t bytes) {
    return (bytes + 7) & ~std::size_t{7};
}

inline constexpr std::size_t kWordBytes = 8;
// The whole magic number record as one word (spec "Magic number record").
inline constexpr std::uint64_t kMagicRecord = 0x0016547846040010ULL;
inline constexpr std::uint64_t kDefaultTicksPerSecond = 1'000'000'000;

enum class RecordType : std::uint8_t {
    Metadata = 0,
    Initialization = 1,
    String = 2,
    Thread = 3,
    Event = 4,
    Blob = 5,
    UserspaceObject = 6,
    KernelObject = 7,
    Scheduling = 8,  // context switch (legacy layout) and, with a sub-type in [60..63], newer ones
    Log = 9,
    LargeRecord = 15,
};

enum class MetadataType : std::uint8_t {
    ProviderInfo = 1,
    ProviderSection = 2,
    ProviderEvent = 3,
    TraceInfo = 4,
};

inline constexpr std::uint64_t kTraceInfoMagic = 0;  // trace info type of the magic record
inline constexpr std::uint64_t kMagicValue = 0x16547846;
inline constexpr std::uint32_t kProviderEventBufferFull = 0;

enum class EventType : std::uint8_t {
    Instant = 0,
    Counter = 1,
    DurationBegin = 2,
    DurationEnd = 3,
    DurationComplete = 4,
    AsyncBegin = 5,
    AsyncInstant = 6,
    AsyncEnd = 7,
    FlowBegin = 8,
    FlowStep = 9,
    FlowEnd = 10,
};
inline constexpr unsigned kLastEventType = 10;

// Whether an event record of this type ends with a word after its arguments (the counter id,
// the complete event's end, the async or flow correlation id).
constexpr bool has_extra_word(EventType t) {
    return t != EventType::Instant && t != EventType::DurationBegin && t != EventType::DurationEnd;
}

// Sub-types of record type 8 in bits [60..63]. Zero is the layout the spec documents; current
// Fuchsia writes 1 and 2 (Perfetto's importer reads them the same way); fxt-cpp adds 3.
enum class SchedulingType : std::uint8_t {
    LegacyContextSwitch = 0,
    ContextSwitch = 1,
    ThreadWakeup = 2,
    FiberSwitch = 3,
};

enum class ArgType : std::uint8_t {
    Null = 0,
    Int32 = 1,
    UInt32 = 2,
    Int64 = 3,
    UInt64 = 4,
    Double = 5,
    String = 6,
    Pointer = 7,
    Koid = 8,
    Bool = 9,
};
inline constexpr unsigned kLastArgType = 9;

// Thread states of the outgoing thread of a context switch (ZX_THREAD_STATE_*).
enum class ThreadState : std::uint8_t {
    New = 0,
    Running = 1,
    Suspended = 2,
    Blocked = 3,
    Dying = 4,
    Dead = 5
};

// Zircon object types the mapping cares about (ZX_OBJ_TYPE_*).
inline constexpr std::uint64_t kObjTypeProcess = 1;
inline constexpr std::uint64_t kObjTypeThread = 2;

inline constexpr std::uint64_t kLargeBlobType = 0;  // large record type of a large BLOB
inline constexpr unsigned kMaxArgs = 15;            // the 4-bit argument count

// String refs (spec "String references"): 0 empty, MSB clear = table index, MSB set = inline
// string of the low 15 bits' length. Thread refs: 0 inline, else table index.
constexpr bool is_inline_string(std::uint16_t ref) {
    return (ref & 0x8000U) != 0;
}
constexpr std::size_t inline_length(std::uint16_t ref) {
    return ref & 0x7fffU;
}

}  // namespace apcgate::collectors::fxt
