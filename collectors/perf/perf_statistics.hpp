// The perf collector's statistics, declared once. The reader, the record normalizer's switch
// timeline and the event mapper each count into their own PerfStatistics; the source adds them
// up at the end of a capture.
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::perf {

enum class PerfStat : std::uint8_t {
    // The reader.
    Drains,
    RecordBytes,
    LateRecords,
    DrainsDeferred,
    HeldPeak,
    RingsSkipped,
    CounterReads,
    RingsClosed,
    // The kernel.
    RecordsLost,
    Throttles,
    // The switch timeline (collectors/perf/switch_timeline.hpp says how a switch is reported).
    SwitchesFromTracepoint,
    SwitchesFromSwitchOut,
    SwitchesRepaired,
    SwitchesOutOfSequence,
    // The event mapper.
    SwitchesDrawn,
    RepeatedSwitches,
    Backtraces,
    FramesUnresolved,
    TablesFull,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(PerfStat::Count)>
    kPerfStatistics{{
        {"perf_drains", Severity::Info, "times the reader emptied the kernel's ring buffers"},
        {"perf_record_bytes", Severity::Info, "bytes of perf records read from the ring buffers"},
        {"perf_late_records", Severity::DataLoss,
         "records more than 1 ms older than events already handed on, shown at that later time "
         "(the timeline never steps back)"},
        {"perf_drains_deferred", Severity::Info,
         "times the reader left the ring buffers to fill because the capture fell behind taking "
         "its events, or /proc was still being read at the start (the kernel counts what it "
         "then drops)"},
        {"perf_held_peak", Severity::Info,
         "most events the reader held decoded at once: records read from the rings and waiting "
         "to be put in time order, and events waiting for the capture to take them (each drain "
         "reads at most a chunk of each ring, so this stays bounded however far behind the "
         "capture fell)"},
        {"perf_rings_skipped", Severity::Info,
         "times a drain left a ring unread because another ring was further behind: its records "
         "could not be handed on before that ring's, and wait in the kernel's ring meanwhile"},
        {"perf_counter_reads", Severity::Info, "times the counters were read"},
        {"perf_rings_closed", Severity::Info,
         "ring buffers of followed threads that exited, no longer waited on"},
        {"perf_records_lost", Severity::DataLoss,
         "records the kernel dropped because a perf ring buffer was full; the capture's Perf: "
         "Lost records counter shows when and on which CPU"},
        {"perf_throttles", Severity::DataLoss,
         "times the kernel throttled sampling because samples took too much CPU time"},
        {"switches_from_sched_switch", Severity::Info,
         "context switches first reported by sched:sched_switch; wait state from its prev_state"},
        {"switches_from_switch_out_records", Severity::Info,
         "context switches first reported by the previous task's switch-out record "
         "(PERF_RECORD_SWITCH_CPU_WIDE); wait state from its preempt flag"},
        {"switches_repaired_from_switch_in_records", Severity::Info,
         "context switches neither sched:sched_switch nor a switch-out record reported (the "
         "kernel leaves them out as a CPU leaves idle), placed at the incoming task's switch-in "
         "record; why the previous task stopped is not known (wait state Other)"},
        {"switches_out_of_sequence", Severity::DataLoss,
         "context switches away from a task other than the one the timeline had running on that "
         "CPU (records were lost, or the kernel reported a switch nowhere): the timeline shows "
         "the earlier task until this switch"},
        {"perf_switches_drawn", Severity::Info, "context switches shown on the timeline"},
        {"perf_repeated_switches", Severity::Info,
         "switches to the task the CPU was already shown running, not drawn again"},
        {"perf_backtraces", Severity::Info, "samples with a call stack"},
        {"perf_frames_unresolved", Severity::DataLoss,
         "user call-stack addresses outside every known mapping, shown without a function"},
        {"perf_tables_full", Severity::DataLoss,
         "threads or processes not tracked because too many were alive: their names and call "
         "stacks are missing"},
    }};

using PerfStatistics = model::Statistics<PerfStat, kPerfStatistics>;

}  // namespace apcgate::collectors::perf
