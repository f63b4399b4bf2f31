// Who runs on each CPU, system-wide, from the up to three reports the kernel writes of each
// context switch into that CPU's ring, in this order (perf_event_open(2), PERF_RECORD_SWITCH and
// PERF_RECORD_SWITCH_CPU_WIDE; include/trace/events/sched.h):
//
//   sched:sched_switch        prev, next, prev_state      in __schedule(), before the switch
//   SWITCH_CPU_WIDE out       sample_id.tid = prev, next  as prev leaves; misc PREEMPT: prev
//                                                         was still runnable
//   SWITCH_CPU_WIDE in        sample_id.tid = next, prev  as next starts running
//
// No one report is always there. Some kernels write neither the tracepoint sample nor the
// switch-out record for a switch out of the idle task (nor for tasks kept away from perf), yet
// write the incoming task's switch-in record; some write no switch-in record for the idle task;
// and the tracepoint may be filtered so that it reports only what the records cannot say. Each
// switch becomes one SwitchEv at its first report (so nothing waits for a report that may never
// come), and the later reports of the same switch are recognised and dropped: same CPU, same
// next task, same previous task (a task that is exiting is reported as -1, which matches any),
// and a later place in the order above.
//
// The wait state comes from the first report: the tracepoint's prev_state, else the switch-out
// record's PREEMPT flag (runnable: Contention, else Other); a switch only its switch-in record
// reported has no word on why the previous task stopped (Other). No I/O.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "collectors/perf/perf_statistics.hpp"
#include "collectors/perf/trace_events.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::perf {

// The reports of one switch, in the order the kernel writes them.
enum class SwitchReport : std::uint8_t { Tracepoint = 0, SwitchOut = 1, SwitchIn = 2 };

struct SwitchSeen {
    SwitchReport report = SwitchReport::Tracepoint;
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t prev_tid = -1;  // -1: not known (the kernel's word for an exiting task)
    std::int32_t next_tid = -1;
    std::int32_t next_pid = -1;
    std::string next_comm;
    model::WaitState wait = model::WaitState::Other;  // as this report tells it
};

class SwitchTimeline {
  public:
    // CPUs numbered beyond this are not reconciled (each report is taken as a switch).
    static constexpr std::int32_t kMaxCpus = 4096;

    // The switch this report reveals, or nothing when an earlier report of it already did.
    std::optional<SwitchEv> add(SwitchSeen seen);
    [[nodiscard]] const PerfStatistics& stats() const { return stats_; }
    // Repairs per CPU since the last call: the capture's repaired-switches counter.
    std::unordered_map<std::int32_t, std::uint64_t> take_repaired() {
        return std::exchange(repaired_per_cpu_, {});
    }

  private:
    struct Cpu {
        bool seen = false;  // a switch was emitted on this CPU
        std::int32_t prev = -1, next = -1;
        SwitchReport last = SwitchReport::Tracepoint;  // latest report of that switch
    };
    std::unordered_map<std::int32_t, Cpu> cpus_;
    std::unordered_map<std::int32_t, std::uint64_t> repaired_per_cpu_;
    PerfStatistics stats_;  // the switch counts of the collector's statistics
};

}  // namespace apcgate::collectors::perf
