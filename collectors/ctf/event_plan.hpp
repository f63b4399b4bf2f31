// What each CTF event class and stream class means to a capture, decided once per class (not
// once per event): which dedicated mapping an event class gets, and where the fields that
// mapping reads sit in its structures. libbabeltrace2 strips TSDL's leading underscore, so
// LTTng's `_vpid` is `vpid` here.
//
//   LTTng kernel (lttng-modules)           fields read
//   sched_switch                           prev_comm prev_tid prev_state next_comm next_tid
//   sched_process_fork                     child_comm child_tid child_pid (parent_pid)
//   sched_process_exec                     filename tid
//   sched_process_exit / _free             comm tid
//   lttng_statedump_process_state          tid pid name
//   irq_handler_entry / _exit              irq
//   irq_softirq_entry / _exit (softirq_*)  vec
//   LTTng-UST
//   lttng_ust_tracef:event                 msg
//   lttng_ust_tracelog:*                   msg file line func
//   stream event context                   vpid vtid pid tid procname perf_thread_* perf_cpu_*
//   stream packet context                  cpu_id packet_size
// A class that lacks a field its mapping needs falls back to the generic annotation.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/ctf/field_text.hpp"

namespace apcgate::collectors::ctf {

enum class EventKind : std::uint8_t {
    Generic,
    SchedSwitch,
    ProcessFork,
    ProcessExec,
    ProcessExit,
    ProcessFree,
    StatedumpProcess,
    IrqEntry,
    IrqExit,
    SoftirqEntry,
    SoftirqExit,
    Tracef,
    Tracelog,
};

// One member of a structure field and how to read it.
struct MemberRef {
    enum class Type : std::uint8_t { None, Unsigned, Signed, String };
    std::int32_t index = -1;
    Type type = Type::None;
    [[nodiscard]] bool found() const { return type != Type::None; }
};

// The member of a structure class named `name` when it is an integer or a string.
MemberRef find_member(const bt_field_class* structure, std::string_view name);
// Reads a member found by find_member (0 / "" when absent).
std::int64_t read_int(const bt_field* structure, MemberRef m);
std::string_view read_string(const bt_field* structure, MemberRef m);

// Roles of EventPlan::fields, per kind.
namespace role {
inline constexpr int kPrevComm = 0, kPrevTid = 1, kPrevState = 2, kNextComm = 3, kNextTid = 4;
inline constexpr int kComm = 0, kTid = 1, kPid = 2, kParentPid = 3;  // fork, exit, free, statedump
inline constexpr int kFilename = 0;                                  // exec (kTid too)
inline constexpr int kNumber = 0;                                    // irq, vec
inline constexpr int kMsg = 0, kFile = 1, kLine = 2, kFunc = 3;      // tracef, tracelog
}  // namespace role

struct EventPlan {
    std::string name;
    EventKind kind = EventKind::Generic;
    std::array<MemberRef, 5> fields{};
    std::vector<MemberText> text;  // how the payload reads as annotation text
    std::string text_prefix;       // the name as annotation text, and a space before members
    // The channel the last event of this class went to, and its group (saves a lookup).
    std::int32_t last_group = -1;
    std::int32_t last_channel = -1;
    // Counts since they were last added to the report (adding per event would cost a lookup).
    std::uint64_t read = 0;
    std::uint64_t mapped = 0;
};

EventPlan plan_event(const bt_event_class* cls);

// A perf counter LTTng samples into every event's context (`lttng add-context -t perf:...`).
struct PerfContext {
    MemberRef member;
    std::string counter;  // the capture counter's name
    std::string label;    // e.g. "cpu_cycles"
    bool per_thread = false;
};

struct StreamPlan {
    MemberRef vpid, vtid, pid, tid, procname;  // event common context
    MemberRef cpu_id, packet_size;             // packet context
    std::vector<PerfContext> perf;
};

StreamPlan plan_stream(const bt_stream_class* cls);

// The capture counter name of a perf context field ("perf_thread_cpu_cycles" ->
// "CTF_perf_thread_cpu_cycles").
std::string perf_counter_name(std::string_view field);

}  // namespace apcgate::collectors::ctf
