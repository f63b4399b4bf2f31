#include "collectors/perf/record_normalizer.hpp"

#include <sys/mman.h>

#include "protocol/wire/overloaded.hpp"

namespace apcgate::collectors::perf {
namespace {

using wire::Overloaded;

}  // namespace

void RecordNormalizer::add(PerfRecord record, std::uint64_t offset, std::string_view input,
                           std::vector<TraceEvent>& out) {
    std::visit(
        Overloaded{
            [&](SampleRecord& s) { sample(s, offset, input, out); },
            [&](const Mmap2Record& m) {
                report_.read(kinds::kMmap2);
                report_.mapped(kinds::kMmap2);
                out.emplace_back(MmapEv{m.sid.time, m.sid.cpu, static_cast<std::int32_t>(m.pid),
                                        m.addr, m.len, m.pgoff, (m.prot & PROT_EXEC) != 0,
                                        m.filename});
            },
            [&](const CommRecord& c) {
                report_.read(kinds::kComm);
                report_.mapped(kinds::kComm);
                out.emplace_back(CommEv{c.sid.time, c.sid.cpu, static_cast<std::int32_t>(c.pid),
                                        static_cast<std::int32_t>(c.tid), c.exec, c.comm});
            },
            [&](const TaskRecord& t) {
                const auto kind = t.fork ? kinds::kFork : kinds::kExit;
                report_.read(kind);
                report_.mapped(kind);
                const auto pid = static_cast<std::int32_t>(t.pid);
                const auto tid = static_cast<std::int32_t>(t.tid);
                if (t.fork)
                    out.emplace_back(ForkEv{t.sid.time, t.sid.cpu, pid,
                                            static_cast<std::int32_t>(t.ppid), tid,
                                            static_cast<std::int32_t>(t.ptid)});
                else
                    out.emplace_back(ExitEv{t.sid.time, t.sid.cpu, pid, tid});
            },
            [&](const LostRecord& l) {
                const auto kind = l.samples ? kinds::kLostSamples : kinds::kLost;
                report_.read(kind);
                report_.mapped(kind);
                lost_[l.sid.cpu] += l.lost;
                stats_[PerfStat::RecordsLost] += l.lost;
            },
            [&](const ThrottleRecord& t) {
                report_.read(kinds::kThrottle);
                report_.skipped(kinds::kThrottle);
                if (t.throttled) ++stats_[PerfStat::Throttles];
            },
            [&](const SwitchRecord& s) { switch_record(s, out); },
            [&](const OtherRecord&) {
                report_.read(kinds::kOther);
                report_.skipped(kinds::kOther);
            },
        },
        record);
}

void RecordNormalizer::reconcile(std::string_view kind, SwitchSeen seen,
                                 std::vector<TraceEvent>& out) {
    auto sw = timeline_.add(std::move(seen));
    if (!sw) return report_.skipped(kind);
    out.emplace_back(std::move(*sw));
    report_.mapped(kind);
}

void RecordNormalizer::switch_record(const SwitchRecord& s, std::vector<TraceEvent>& out) {
    const auto kind = s.cpu_wide ? kinds::kSwitchCpuWide : kinds::kSwitch;
    report_.read(kind);
    // Runnable as it left (preempted, or yielded): waiting for the CPU.
    const model::WaitState wait =
        s.preempted ? model::WaitState::Contention : model::WaitState::Other;
    if (s.cpu_wide) {
        if (config_.follow) return report_.skipped(kind);
        SwitchSeen seen;
        seen.time = s.sid.time;
        seen.cpu = s.sid.cpu;
        if (s.out) {  // the task in sample_id leaves for next_prev
            seen.report = SwitchReport::SwitchOut;
            seen.prev_tid = s.sid.tid;
            seen.next_tid = s.next_prev_tid;
            seen.next_pid = s.next_prev_pid;
            seen.wait = wait;
        } else {  // the task in sample_id starts running after next_prev
            seen.report = SwitchReport::SwitchIn;
            seen.prev_tid = s.next_prev_tid;
            seen.next_tid = s.sid.tid;
            seen.next_pid = s.sid.pid;
        }
        return reconcile(kind, std::move(seen), out);
    }
    if (!config_.follow) return report_.skipped(kind);
    if (!s.out)
        out.emplace_back(SwitchEv{s.sid.time, s.sid.cpu, s.sid.tid, {}, model::WaitState::Other});
    else if (config_.switch_out_from_tracepoint)
        return report_.skipped(kind);
    else
        out.emplace_back(SwitchEv{s.sid.time, s.sid.cpu, -1, {}, wait});
    report_.mapped(kind);
}

void RecordNormalizer::sample(SampleRecord& s, std::uint64_t offset, std::string_view input,
                              std::vector<TraceEvent>& out) {
    auto it = roles_.find(s.sid.id);
    const EventRole role = it == roles_.end() ? EventRole::Sideband : it->second;
    switch (role) {
        case EventRole::SchedSwitch: {
            report_.read(kinds::kSchedSwitch);
            if (!config_.sched_switch) return report_.skipped(kinds::kSchedSwitch);
            auto f = config_.sched_switch->decode(s.raw, offset, input);
            if (!f) return report_.bad_record(std::move(f).take_error());
            const model::WaitState wait = config_.sched_switch->wait_state(f->prev_state);
            if (!config_.follow) {
                SwitchSeen seen;
                seen.report = SwitchReport::Tracepoint;
                seen.time = s.sid.time;
                seen.cpu = s.sid.cpu;
                seen.prev_tid = f->prev_tid;
                seen.next_tid = f->next_tid;
                seen.next_comm = std::move(f->next_comm);
                seen.wait = wait;
                return reconcile(kinds::kSchedSwitch, std::move(seen), out);
            }
            out.emplace_back(SwitchEv{s.sid.time, s.sid.cpu, -1, {}, wait});
            return report_.mapped(kinds::kSchedSwitch);
        }
        case EventRole::CpuIdle: {
            report_.read(kinds::kCpuIdle);
            if (!config_.cpu_idle) return report_.skipped(kinds::kCpuIdle);
            auto f = config_.cpu_idle->decode(s.raw, offset, input);
            if (!f) return report_.bad_record(std::move(f).take_error());
            out.emplace_back(IdleEv{s.sid.time, f->cpu, f->state});
            return report_.mapped(kinds::kCpuIdle);
        }
        case EventRole::ClockSampler:
        case EventRole::PmuSampler: {
            const auto kind =
                role == EventRole::PmuSampler ? kinds::kPmuSample : kinds::kClockSample;
            report_.read(kind);
            out.emplace_back(SampleEv{s.sid.time, s.sid.cpu, s.sid.pid, s.sid.tid, s.ip,
                                      (s.misc & kMiscCpuModeMask) == kMiscKernel,
                                      std::move(s.callchain)});
            return report_.mapped(kind);
        }
        case EventRole::Sideband:
            report_.read(kinds::kOther);
            return report_.skipped(kinds::kOther);
    }
}

std::unordered_map<std::int32_t, std::uint64_t> RecordNormalizer::take_lost() {
    return std::exchange(lost_, {});
}

}  // namespace apcgate::collectors::perf
