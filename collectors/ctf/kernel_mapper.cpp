#include "collectors/ctf/kernel_mapper.hpp"

namespace apcgate::collectors::ctf {

namespace {
constexpr std::int64_t kTaskUninterruptible = 2;  // TASK_UNINTERRUPTIBLE ("D")
constexpr std::int64_t kStateBits = 0xff;         // above: flags, e.g. TASK_REPORT_MAX = preempted

std::int32_t as_tid(std::int64_t v) {
    return static_cast<std::int32_t>(v);
}
}  // namespace

model::WaitState KernelMapper::wait_state(std::int64_t prev_state) {
    const std::int64_t state = prev_state & kStateBits;
    if (state == 0) return model::WaitState::Contention;  // still runnable: it was preempted
    if ((state & kTaskUninterruptible) != 0) return model::WaitState::Io;
    return model::WaitState::Other;
}

bool KernelMapper::map(const EventPlan& plan, const bt_field* payload, model::Nanos ts,
                       std::int32_t core, std::vector<model::Event>& out) {
    const auto& f = plan.fields;
    switch (plan.kind) {
        case EventKind::SchedSwitch:
            sched_switch(plan, payload, ts, core, out);
            return true;
        case EventKind::ProcessFork: {
            const std::int32_t tid = as_tid(read_int(payload, f[role::kTid]));
            const std::int32_t pid =
                f[role::kPid].found() ? as_tid(read_int(payload, f[role::kPid])) : -1;
            threads_.learn(ts, core, tid, pid, read_string(payload, f[role::kComm]), {}, out);
            return true;
        }
        case EventKind::ProcessExec: {
            const std::int32_t tid = as_tid(read_int(payload, f[role::kTid]));
            const std::string_view path = read_string(payload, f[role::kFilename]);
            const auto slash = path.rfind('/');
            // The kernel names the task after the file it executes (comm is at most 15 bytes).
            std::string_view comm = slash == std::string_view::npos ? path : path.substr(slash + 1);
            comm = comm.substr(0, 15);
            threads_.learn(ts, core, tid, threads_.pid_of(tid), comm, path, out);
            return true;
        }
        case EventKind::ProcessExit:
            threads_.exited(ts, as_tid(read_int(payload, f[role::kTid])), out);
            return true;
        case EventKind::ProcessFree:
            threads_.freed(ts, as_tid(read_int(payload, f[role::kTid])), out);
            return true;
        case EventKind::StatedumpProcess:
            threads_.learn(ts, core, as_tid(read_int(payload, f[role::kTid])),
                           as_tid(read_int(payload, f[role::kPid])),
                           read_string(payload, f[role::kComm]), {}, out);
            return true;
        case EventKind::IrqEntry:
            handler_entry(false, ts, core, out);
            return true;
        case EventKind::IrqExit:
            handler_exit(false, ts, core, out);
            return true;
        case EventKind::SoftirqEntry:
            handler_entry(true, ts, core, out);
            return true;
        case EventKind::SoftirqExit:
            handler_exit(true, ts, core, out);
            return true;
        default:
            return false;
    }
}

void KernelMapper::sched_switch(const EventPlan& plan, const bt_field* payload, model::Nanos ts,
                                std::int32_t core, std::vector<model::Event>& out) {
    const auto& f = plan.fields;
    const std::int32_t prev = as_tid(read_int(payload, f[role::kPrevTid]));
    const std::int32_t next = as_tid(read_int(payload, f[role::kNextTid]));
    if (prev != 0)
        threads_.learn(ts, core, prev, -1, read_string(payload, f[role::kPrevComm]), {}, out);
    if (next != 0)
        threads_.learn(ts, core, next, -1, read_string(payload, f[role::kNextComm]), {}, out);
    if (!keys_.cpu_activity) return;
    model::ActivitySwitch s;
    s.ts = ts;
    s.core = core;
    s.key = *keys_.cpu_activity;
    s.activity = next == 0 ? 0 : 1;  // tid 0 is the idle task
    s.tid = next == 0 ? -1 : next;
    s.wait = wait_state(read_int(payload, f[role::kPrevState]));
    out.push_back(s);
}

void KernelMapper::handler_entry(bool soft, model::Nanos ts, std::int32_t core,
                                 std::vector<model::Event>& out) {
    const auto& count = soft ? keys_.softirq_count : keys_.irq_count;
    if (count) out.push_back(model::CounterSample{ts, core, *count, 1, -1});
    if (static_cast<std::uint32_t>(core) >= kMaxIrqCores) return;
    auto& stack = entries_[(static_cast<std::uint32_t>(core) << 1) | (soft ? 1U : 0U)];
    if (stack.size() < kMaxIrqNesting) stack.push_back(ts);
}

void KernelMapper::handler_exit(bool soft, model::Nanos ts, std::int32_t core,
                                std::vector<model::Event>& out) {
    if (static_cast<std::uint32_t>(core) >= kMaxIrqCores) return;
    auto it = entries_.find((static_cast<std::uint32_t>(core) << 1) | (soft ? 1U : 0U));
    // An exit without its entry (the trace began inside the handler) has no duration.
    if (it == entries_.end() || it->second.empty()) return;
    const model::Nanos began = it->second.back();
    it->second.pop_back();
    const auto& time = soft ? keys_.softirq_time : keys_.irq_time;
    if (time && ts >= began) out.push_back(model::CounterSample{ts, core, *time, ts - began, -1});
}

}  // namespace apcgate::collectors::ctf
