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

// A statistic of the capture: declared once, with the level at which the end-of-capture log
// reports a non-zero count and what it means.
struct StatisticSpec {
    std::string_view name;
    LogLevel severity = LogLevel::Info;
    std::string_view description;
};

namespace switch_stats {
inline constexpr StatisticSpec kFromTracepoint{
    "switches_from_sched_switch", LogLevel::Debug,
    "context switches first reported by sched:sched_switch; wait state from its prev_state"};
inline constexpr StatisticSpec kFromSwitchOut{
    "switches_from_switch_out_records", LogLevel::Debug,
    "context switches first reported by the previous task's switch-out record "
    "(PERF_RECORD_SWITCH_CPU_WIDE); wait state from its preempt flag"};
inline constexpr StatisticSpec kRepaired{
    "switches_repaired_from_switch_in_records", LogLevel::Info,
    "context switches neither sched:sched_switch nor a switch-out record reported (the kernel "
    "leaves them out as a CPU leaves idle), placed at the incoming task's switch-in record; why "
    "the previous task stopped is not known (wait state Other)"};
inline constexpr StatisticSpec kOutOfSequence{
    "switches_out_of_sequence", LogLevel::Info,
    "context switches away from a task other than the one the timeline had running on that CPU "
    "(records were lost, or the kernel reported a switch nowhere): the timeline shows the "
    "earlier task until this switch, and a switch to the task already running is not repeated"};
inline constexpr std::array kAll{&kFromTracepoint, &kFromSwitchOut, &kRepaired, &kOutOfSequence};
}  // namespace switch_stats

struct SwitchTimelineStats {
    std::uint64_t from_tracepoint = 0;
    std::uint64_t from_switch_out = 0;
    std::uint64_t repaired = 0;
    std::uint64_t out_of_sequence = 0;

    [[nodiscard]] std::uint64_t switches() const {
        return from_tracepoint + from_switch_out + repaired;
    }
    // The count of a declared statistic.
    [[nodiscard]] std::uint64_t count(const StatisticSpec& s) const;
};

class SwitchTimeline {
  public:
    // CPUs numbered beyond this are not reconciled (each report is taken as a switch).
    static constexpr std::int32_t kMaxCpus = 4096;

    // The switch this report reveals, or nothing when an earlier report of it already did.
    std::optional<SwitchEv> add(SwitchSeen seen);
    [[nodiscard]] const SwitchTimelineStats& stats() const { return stats_; }
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
    SwitchTimelineStats stats_;
};

}  // namespace apcgate::collectors::perf
