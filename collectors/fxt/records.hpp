// FXT records as types: what the parser makes of one record, with string and thread references
// already resolved through the provider's tables. Strings are views into the input (the mapped
// file outlives every record); nothing here is a model event yet.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "collectors/fxt/format.hpp"

namespace apcgate::collectors::fxt {

// A process koid and a thread koid (an inline thread or an entry of the thread table).
struct ThreadKoids {
    std::uint64_t pid = 0;
    std::uint64_t tid = 0;
    bool operator==(const ThreadKoids&) const = default;
};

// One argument. Numbers share one 64-bit field (records hold 15 arguments, so size matters):
// read it through the accessor of the argument's type.
// No member initializers: an ArgList's 15 slots are written only as arguments are read, and a
// record read would otherwise clear all of them first (`Arg a{}` for a cleared one).
struct Arg {
    std::string_view name;
    std::string_view s;   // String
    std::uint64_t value;  // Int32 (sign-extended), Int64, UInt32, UInt64, Pointer, Koid,
                          // Bool (0/1), the bits of a Double
    ArgType type;

    [[nodiscard]] std::int64_t i() const { return static_cast<std::int64_t>(value); }
    [[nodiscard]] std::uint64_t u() const { return value; }
    [[nodiscard]] double d() const { return std::bit_cast<double>(value); }
};

struct ArgList {
    std::array<Arg, kMaxArgs> items;  // the first `count` are set
    unsigned count = 0;
    [[nodiscard]] const Arg* begin() const { return items.data(); }
    [[nodiscard]] const Arg* end() const { return items.data() + count; }
    [[nodiscard]] const Arg* find(std::string_view name) const {
        for (const Arg& a : *this)
            if (a.name == name) return &a;
        return nullptr;
    }
};

struct MagicRecord {};
struct TraceInfoRecord {
    std::uint32_t info_type = 0;
};
struct ProviderInfoRecord {
    std::uint32_t id = 0;
    std::string_view name;
};
struct ProviderSectionRecord {
    std::uint32_t id = 0;
};
struct ProviderEventRecord {
    std::uint32_t id = 0;
    std::uint32_t event = 0;  // kProviderEventBufferFull: records were likely dropped
};
struct InitializationRecord {
    std::uint64_t ticks_per_second = 0;
};
struct StringRecord {
    std::uint16_t index = 0;  // 0: must be ignored
    std::string_view text;
};
struct ThreadRecord {
    std::uint8_t index = 0;  // 0: must be ignored
    ThreadKoids thread;
};

// Event record (type 4). `extra` is the event-type word: counter id, end time (ticks) of a
// complete event, or the async/flow correlation id.
struct EventRecord {
    EventType type = EventType::Instant;
    std::uint64_t ticks = 0;
    ThreadKoids thread;
    std::string_view category;
    std::string_view name;
    ArgList args;
    std::uint64_t extra = 0;
};

struct BlobRecord {
    std::string_view name;
    std::uint64_t size = 0;
    std::uint32_t blob_type = 0;
};
struct LargeBlobRecord {
    std::uint32_t format = 0;  // 0: with metadata, 1: without
    std::string_view category;
    std::string_view name;
    std::uint64_t ticks = 0;  // format 0 only
    ThreadKoids thread;       // format 0 only
    std::uint64_t size = 0;
};
struct UserspaceObjectRecord {
    std::uint64_t pointer = 0;
    std::uint64_t pid = 0;
    std::string_view name;
    ArgList args;
};
struct KernelObjectRecord {
    std::uint64_t koid = 0;
    std::uint32_t object_type = 0;
    std::string_view name;
    ArgList args;
};

// Both layouts of record type 8: the spec's (sub-type 0, koids with pids, priorities) and the
// newer one (sub-type 1, thread koids only, weights as arguments).
struct ContextSwitchRecord {
    bool legacy = false;
    std::uint32_t cpu = 0;
    std::uint32_t outgoing_state = 0;
    std::uint64_t ticks = 0;
    ThreadKoids outgoing;  // pid 0 in the newer layout
    ThreadKoids incoming;
    bool outgoing_idle = false;
    bool incoming_idle = false;
};
struct ThreadWakeupRecord {
    std::uint32_t cpu = 0;
    std::uint64_t ticks = 0;
    std::uint64_t tid = 0;
};
struct FiberSwitchRecord {
    std::uint64_t ticks = 0;
    std::uint64_t outgoing_fiber = 0;
    std::uint64_t incoming_fiber = 0;
};
struct LogRecord {
    std::uint64_t ticks = 0;
    ThreadKoids thread;
    std::string_view message;
};

// A scheduling record (type 8) read on its own (RecordParser::parse_scheduling) into one the
// caller reuses, like EventRecord: a third of an archive's records are context switches and
// wakeups, and the Record variant's switch of alternative and visits cost them as much as their
// reading. `type` says which member holds it; `args` is where the arguments are read (a
// context switch's idle weights are found there), kept so that it is not set up per record.
struct SchedulingRecord {
    SchedulingType type = SchedulingType::ContextSwitch;
    ContextSwitchRecord context_switch;  // LegacyContextSwitch, ContextSwitch
    ThreadWakeupRecord wakeup;           // ThreadWakeup
    FiberSwitchRecord fiber;             // FiberSwitch
    ArgList args;

    [[nodiscard]] bool is_switch() const {
        return type == SchedulingType::LegacyContextSwitch || type == SchedulingType::ContextSwitch;
    }
    // The record's timestamp (ticks).
    [[nodiscard]] std::uint64_t ticks() const {
        if (is_switch()) return context_switch.ticks;
        return type == SchedulingType::ThreadWakeup ? wakeup.ticks : fiber.ticks;
    }
};

using Record =
    std::variant<MagicRecord, TraceInfoRecord, ProviderInfoRecord, ProviderSectionRecord,
                 ProviderEventRecord, InitializationRecord, StringRecord, ThreadRecord, EventRecord,
                 BlobRecord, LargeBlobRecord, UserspaceObjectRecord, KernelObjectRecord,
                 ContextSwitchRecord, ThreadWakeupRecord, FiberSwitchRecord, LogRecord>;

// The timestamp (ticks) a record happens at, for the records that have one.
inline std::optional<std::uint64_t> start_ticks(const Record& r) {
    if (const auto* e = std::get_if<EventRecord>(&r)) return e->ticks;
    if (const auto* s = std::get_if<ContextSwitchRecord>(&r)) return s->ticks;
    if (const auto* l = std::get_if<LogRecord>(&r)) return l->ticks;
    if (const auto* w = std::get_if<ThreadWakeupRecord>(&r)) return w->ticks;
    if (const auto* f = std::get_if<FiberSwitchRecord>(&r)) return f->ticks;
    if (const auto* b = std::get_if<LargeBlobRecord>(&r); b != nullptr && b->format == 0)
        return b->ticks;
    return std::nullopt;
}

}  // namespace apcgate::collectors::fxt
