// Record type 8, whose sub-type sits in header bits [60..63]. Sub-type 0 is the spec's "Context
// switch record"; 1 and 2 are the layout current Fuchsia writes (as Perfetto's importer reads
// it, and as the fxt-cpp writer emits it); 3 is fxt-cpp's fiber switch:
//
//   0 legacy context switch: [16..23] cpu | [24..27] outgoing state | [28..35] outgoing thread
//        ref | [36..43] incoming thread ref | [44..51] outgoing priority | [52..59] incoming prio
//        timestamp word, [out pid word, out tid word], [in pid word, in tid word]
//   1 context switch:        [16..19] argument count | [20..35] cpu | [36..39] outgoing state
//        timestamp word, outgoing tid word, incoming tid word, argument*
//        (int32 arguments "outgoing_weight"/"incoming_weight"; INT32_MIN marks the idle thread)
//   2 thread wakeup:         [16..19] argument count | [20..35] cpu
//        timestamp word, waking tid word, argument*  ("weight")
//   3 fiber switch:          [16..19] argument count | [20..27] thread ref
//        timestamp word, outgoing fiber id word, incoming fiber id word, argument*
//
// Idle: in the legacy layout a thread of process 0 at priority 0 is the CPU's idle thread.
#include <limits>

#include "collectors/fxt/record_parser.hpp"

namespace apcgate::collectors::fxt::detail {

namespace {

constexpr std::int64_t kIdleWeight = std::numeric_limits<std::int32_t>::min();

bool idle_weight(const ArgList& args, std::string_view name) {
    const Arg* a = args.find(name);
    return a != nullptr && a->type == ArgType::Int32 && a->i() == kIdleWeight;
}

// Each sets every field of its record (from a fresh one: the caller reuses it).
void legacy_switch(RecordCursor& c, ContextSwitchRecord& r) {
    r = ContextSwitchRecord{};
    r.legacy = true;
    r.cpu = static_cast<std::uint32_t>(c.field(16, 23));
    r.outgoing_state = static_cast<std::uint32_t>(c.field(24, 27));
    r.ticks = c.word("timestamp");
    r.outgoing = c.thread_ref(static_cast<std::uint8_t>(c.field(28, 35)), "outgoing thread");
    r.incoming = c.thread_ref(static_cast<std::uint8_t>(c.field(36, 43)), "incoming thread");
    r.outgoing_idle = r.outgoing.pid == 0 && c.field(44, 51) == 0;
    r.incoming_idle = r.incoming.pid == 0 && c.field(52, 59) == 0;
}

void context_switch(RecordCursor& c, ContextSwitchRecord& r, ArgList& args) {
    r = ContextSwitchRecord{};
    r.cpu = static_cast<std::uint32_t>(c.field(20, 35));
    r.outgoing_state = static_cast<std::uint32_t>(c.field(36, 39));
    r.ticks = c.word("timestamp");
    r.outgoing.tid = c.word("outgoing thread koid");
    r.incoming.tid = c.word("incoming thread koid");
    c.args(static_cast<unsigned>(c.field(16, 19)), args);
    r.outgoing_idle = idle_weight(args, "outgoing_weight");
    r.incoming_idle = idle_weight(args, "incoming_weight");
}

void wakeup(RecordCursor& c, ThreadWakeupRecord& r, ArgList& args) {
    r = ThreadWakeupRecord{};
    r.cpu = static_cast<std::uint32_t>(c.field(20, 35));
    r.ticks = c.word("timestamp");
    r.tid = c.word("waking thread koid");
    c.args(static_cast<unsigned>(c.field(16, 19)), args);
}

void fiber_switch(RecordCursor& c, FiberSwitchRecord& r, ArgList& args) {
    r = FiberSwitchRecord{};
    r.ticks = c.word("timestamp");
    r.outgoing_fiber = c.word("outgoing fiber id");
    r.incoming_fiber = c.word("incoming fiber id");
    c.args(static_cast<unsigned>(c.field(16, 19)), args);
}

}  // namespace

void parse_scheduling(RecordCursor& c, SchedulingRecord& out) {
    const auto type = static_cast<SchedulingType>(c.field(60, 63));
    switch (type) {
        case SchedulingType::LegacyContextSwitch:
            legacy_switch(c, out.context_switch);
            break;
        case SchedulingType::ContextSwitch:
            context_switch(c, out.context_switch, out.args);
            break;
        case SchedulingType::ThreadWakeup:
            wakeup(c, out.wakeup, out.args);
            break;
        case SchedulingType::FiberSwitch:
            fiber_switch(c, out.fiber, out.args);
            break;
        default:
            c.fail_header("unknown scheduling record type " + std::to_string(c.field(60, 63)),
                          "scheduling record type");
            return;
    }
    out.type = type;
}

void parse_scheduling(RecordCursor& c, Record& out) {
    SchedulingRecord s;
    parse_scheduling(c, s);
    if (!c.ok()) return;  // parse() returns the cursor's error, and `out` is not read
    if (s.is_switch()) {
        out = s.context_switch;
    } else if (s.type == SchedulingType::ThreadWakeup) {
        out = s.wakeup;
    } else {
        out = s.fiber;
    }
}

}  // namespace apcgate::collectors::fxt::detail
