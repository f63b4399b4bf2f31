#include "collectors/perf/switch_timeline.hpp"

namespace apcgate::collectors::perf {

std::optional<SwitchEv> SwitchTimeline::add(SwitchSeen s) {
    if (s.cpu >= 0 && s.cpu < kMaxCpus) {
        Cpu& c = cpus_[s.cpu];
        if (c.seen) {
            const bool same_prev = c.prev == s.prev_tid || c.prev < 0 || s.prev_tid < 0;
            if (c.next == s.next_tid && same_prev && s.report > c.last) {
                c.last = s.report;  // a later report of the switch already emitted
                if (c.prev < 0) c.prev = s.prev_tid;
                return std::nullopt;
            }
            const bool already_runs = c.next == s.next_tid;
            if ((s.prev_tid >= 0 && c.next >= 0 && s.prev_tid != c.next) || already_runs)
                ++stats_[PerfStat::SwitchesOutOfSequence];
            if (already_runs) {
                // The task already runs: the kernel reported no switch into prev (it ran unseen,
                // which no report places in time). Counted above; a switch to what the CPU
                // already runs would only draw a CPU switched to itself.
                c = Cpu{true, s.prev_tid, s.next_tid, s.report};
                return std::nullopt;
            }
        }
        c = Cpu{true, s.prev_tid, s.next_tid, s.report};
    }
    switch (s.report) {
        case SwitchReport::Tracepoint:
            ++stats_[PerfStat::SwitchesFromTracepoint];
            break;
        case SwitchReport::SwitchOut:
            ++stats_[PerfStat::SwitchesFromSwitchOut];
            break;
        case SwitchReport::SwitchIn:
            ++stats_[PerfStat::SwitchesRepaired];
            ++repaired_per_cpu_[s.cpu];
            break;
    }
    return SwitchEv{s.time, s.cpu, s.next_tid, std::move(s.next_comm), s.wait, s.next_pid};
}

}  // namespace apcgate::collectors::perf
