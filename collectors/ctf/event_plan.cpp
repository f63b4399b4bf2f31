#include "collectors/ctf/event_plan.hpp"

#include <initializer_list>

namespace apcgate::collectors::ctf {

namespace {

struct KindRule {
    std::string_view name;
    EventKind kind;
    std::initializer_list<std::pair<int, std::string_view>> needs;
};

// The dedicated mappings: event name, kind, and the payload members it must have.
const KindRule kRules[] = {
    {"sched_switch",
     EventKind::SchedSwitch,
     {{role::kPrevComm, "prev_comm"},
      {role::kPrevTid, "prev_tid"},
      {role::kPrevState, "prev_state"},
      {role::kNextComm, "next_comm"},
      {role::kNextTid, "next_tid"}}},
    {"sched_process_fork",
     EventKind::ProcessFork,
     {{role::kComm, "child_comm"}, {role::kTid, "child_tid"}}},
    {"sched_process_exec",
     EventKind::ProcessExec,
     {{role::kFilename, "filename"}, {role::kTid, "tid"}}},
    {"sched_process_exit", EventKind::ProcessExit, {{role::kComm, "comm"}, {role::kTid, "tid"}}},
    {"sched_process_free", EventKind::ProcessFree, {{role::kComm, "comm"}, {role::kTid, "tid"}}},
    {"lttng_statedump_process_state",
     EventKind::StatedumpProcess,
     {{role::kComm, "name"}, {role::kTid, "tid"}, {role::kPid, "pid"}}},
    {"irq_handler_entry", EventKind::IrqEntry, {{role::kNumber, "irq"}}},
    {"irq_handler_exit", EventKind::IrqExit, {{role::kNumber, "irq"}}},
    {"irq_softirq_entry", EventKind::SoftirqEntry, {{role::kNumber, "vec"}}},
    {"irq_softirq_exit", EventKind::SoftirqExit, {{role::kNumber, "vec"}}},
    {"softirq_entry", EventKind::SoftirqEntry, {{role::kNumber, "vec"}}},
    {"softirq_exit", EventKind::SoftirqExit, {{role::kNumber, "vec"}}},
    {"lttng_ust_tracef:event", EventKind::Tracef, {{role::kMsg, "msg"}}},
};

MemberRef::Type member_type(const bt_field_class* fc) {
    const bt_field_class_type t = bt_field_class_get_type(fc);
    if (t == BT_FIELD_CLASS_TYPE_STRING) return MemberRef::Type::String;
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
        return MemberRef::Type::Signed;
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
        return MemberRef::Type::Unsigned;
    return MemberRef::Type::None;
}

// Fills `plan.fields` from the rule; false when a member is missing.
bool bind(EventPlan& plan, const bt_field_class* payload,
          std::initializer_list<std::pair<int, std::string_view>> needs) {
    for (const auto& [slot, member] : needs) {
        plan.fields[static_cast<std::size_t>(slot)] = find_member(payload, member);
        if (!plan.fields[static_cast<std::size_t>(slot)].found()) return false;
    }
    return true;
}

}  // namespace

MemberRef find_member(const bt_field_class* structure, std::string_view name) {
    MemberRef ref;
    if (structure == nullptr || bt_field_class_get_type(structure) != BT_FIELD_CLASS_TYPE_STRUCTURE)
        return ref;
    const std::uint64_t n = bt_field_class_structure_get_member_count(structure);
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto* m = bt_field_class_structure_borrow_member_by_index_const(structure, i);
        if (name != bt_field_class_structure_member_get_name(m)) continue;
        ref.type = member_type(bt_field_class_structure_member_borrow_field_class_const(m));
        ref.index = ref.found() ? static_cast<std::int32_t>(i) : -1;
        break;
    }
    return ref;
}

std::int64_t read_int(const bt_field* structure, MemberRef m) {
    if (structure == nullptr || m.index < 0) return 0;
    const bt_field* f = bt_field_structure_borrow_member_field_by_index_const(
        structure, static_cast<std::uint64_t>(m.index));
    switch (m.type) {
        case MemberRef::Type::Signed:
            return bt_field_integer_signed_get_value(f);
        case MemberRef::Type::Unsigned:
            return static_cast<std::int64_t>(bt_field_integer_unsigned_get_value(f));
        default:
            return 0;
    }
}

std::string_view read_string(const bt_field* structure, MemberRef m) {
    if (structure == nullptr || m.index < 0 || m.type != MemberRef::Type::String) return {};
    const bt_field* f = bt_field_structure_borrow_member_field_by_index_const(
        structure, static_cast<std::uint64_t>(m.index));
    return {bt_field_string_get_value(f), bt_field_string_get_length(f)};
}

EventPlan plan_event(const bt_event_class* cls) {
    EventPlan plan;
    const char* name = bt_event_class_get_name(cls);
    plan.name = name != nullptr ? name : "event " + std::to_string(bt_event_class_get_id(cls));
    const bt_field_class* payload = bt_event_class_borrow_payload_field_class_const(cls);
    for (const auto& rule : kRules) {
        if (rule.name != plan.name) continue;
        if (bind(plan, payload, rule.needs)) plan.kind = rule.kind;
        break;
    }
    if (plan.kind == EventKind::ProcessFork) {
        plan.fields[role::kPid] = find_member(payload, "child_pid");
        plan.fields[role::kParentPid] = find_member(payload, "parent_pid");
    }
    if (plan.kind == EventKind::Generic && plan.name.rfind("lttng_ust_tracelog:", 0) == 0) {
        if (bind(plan, payload, {{role::kMsg, "msg"}})) {
            plan.kind = EventKind::Tracelog;
            plan.fields[role::kFile] = find_member(payload, "file");
            plan.fields[role::kLine] = find_member(payload, "line");
            plan.fields[role::kFunc] = find_member(payload, "func");
        }
    }
    if (plan.kind == EventKind::Generic) plan.fields = {};
    plan.text = plan_members(payload);
    append_utf8(plan.text_prefix, plan.name, false);
    if (!plan.text.empty()) plan.text_prefix += ' ';
    return plan;
}

std::string perf_counter_name(std::string_view field) {
    return "CTF_" + std::string(field);
}

StreamPlan plan_stream(const bt_stream_class* cls) {
    StreamPlan plan;
    const bt_field_class* ctx = bt_stream_class_borrow_event_common_context_field_class_const(cls);
    plan.vpid = find_member(ctx, "vpid");
    plan.vtid = find_member(ctx, "vtid");
    plan.pid = find_member(ctx, "pid");
    plan.tid = find_member(ctx, "tid");
    plan.procname = find_member(ctx, "procname");
    if (ctx != nullptr && bt_field_class_get_type(ctx) == BT_FIELD_CLASS_TYPE_STRUCTURE) {
        const std::uint64_t n = bt_field_class_structure_get_member_count(ctx);
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::string_view name = bt_field_class_structure_member_get_name(
                bt_field_class_structure_borrow_member_by_index_const(ctx, i));
            const bool thread = name.rfind("perf_thread_", 0) == 0;
            if (!thread && name.rfind("perf_cpu_", 0) != 0) continue;
            PerfContext p;
            p.member = find_member(ctx, name);
            if (!p.member.found() || p.member.type == MemberRef::Type::String) continue;
            p.counter = perf_counter_name(name);
            p.label = std::string(name.substr(thread ? 12 : 9));
            p.per_thread = thread;
            plan.perf.push_back(std::move(p));
        }
    }
    const bt_field_class* packet = bt_stream_class_borrow_packet_context_field_class_const(cls);
    plan.cpu_id = find_member(packet, "cpu_id");
    plan.packet_size = find_member(packet, "packet_size");
    return plan;
}

}  // namespace apcgate::collectors::ctf
