// One pass over parsed perf records: decides what each means (trace_events.hpp) from the role
// of the event that wrote it, decodes tracepoint payloads, and counts every record kind in the
// IngestReport (read / mapped / skipped / bad). Lost records are tallied per CPU for the reader
// to publish. No I/O.
//
// Context switches come from one of two places, decided when the events are opened:
//   - system-wide: every report the kernel writes of each switch, sched:sched_switch samples
//     and SWITCH_CPU_WIDE records, reconciled into one switch each (switch_timeline.hpp);
//   - following tasks: their own SWITCH records ("in": the task runs; "out": the CPU goes to
//     something not followed), or, when the tracepoint opens, its per-task samples for "out".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/perf/perf_records.hpp"
#include "collectors/perf/switch_timeline.hpp"
#include "collectors/perf/trace_events.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"

namespace apcgate::collectors::perf {

enum class EventRole : std::uint8_t { Sideband, SchedSwitch, CpuIdle, ClockSampler, PmuSampler };

struct NormalizerConfig {
    bool follow = false;                      // per-task events (record -- CMD, --pid)
    bool switch_out_from_tracepoint = false;  // follow mode with the per-task tracepoint
    std::optional<SchedSwitchLayout> sched_switch;
    std::optional<CpuIdleLayout> cpu_idle;
};

// Names of the record kinds counted in the IngestReport, declared once.
namespace kinds {
inline constexpr std::string_view kSchedSwitch = "SAMPLE sched:sched_switch";
inline constexpr std::string_view kCpuIdle = "SAMPLE power:cpu_idle";
inline constexpr std::string_view kClockSample = "SAMPLE cpu-clock";
inline constexpr std::string_view kPmuSample = "SAMPLE pmu";
inline constexpr std::string_view kMmap2 = "MMAP2";
inline constexpr std::string_view kComm = "COMM";
inline constexpr std::string_view kFork = "FORK";
inline constexpr std::string_view kExit = "EXIT";
inline constexpr std::string_view kLost = "LOST";
inline constexpr std::string_view kLostSamples = "LOST_SAMPLES";
inline constexpr std::string_view kThrottle = "THROTTLE";
inline constexpr std::string_view kSwitch = "SWITCH";
inline constexpr std::string_view kSwitchCpuWide = "SWITCH_CPU_WIDE";
inline constexpr std::string_view kOther = "other";
inline constexpr std::string_view kHeader = "perf_event_header";
}  // namespace kinds

class RecordNormalizer {
  public:
    RecordNormalizer(NormalizerConfig config, ingest::IngestReport& report)
        : config_(std::move(config)), report_(report) {}

    void set_role(std::uint64_t id, EventRole role) { roles_[id] = role; }
    // `offset` and `input` locate the record for errors in its payload.
    void add(PerfRecord record, std::uint64_t offset, std::string_view input,
             std::vector<TraceEvent>& out);

    // Records (and samples) the kernel reported lost, per CPU, since the last call.
    std::unordered_map<std::int32_t, std::uint64_t> take_lost();
    [[nodiscard]] std::uint64_t lost_total() const { return stats_[PerfStat::RecordsLost]; }
    // Switches repaired from switch-in records, per CPU, since the last call.
    std::unordered_map<std::int32_t, std::uint64_t> take_repaired_switches() {
        return timeline_.take_repaired();
    }
    // Records lost, throttles, where the system-wide switches came from and what was repaired.
    [[nodiscard]] PerfStatistics statistics() const {
        PerfStatistics all = stats_;
        all += timeline_.stats();
        return all;
    }

  private:
    void sample(SampleRecord& s, std::uint64_t offset, std::string_view input,
                std::vector<TraceEvent>& out);
    void switch_record(const SwitchRecord& s, std::vector<TraceEvent>& out);
    // A system-wide switch report: mapped when it is the switch's first, else skipped.
    void reconcile(std::string_view kind, SwitchSeen seen, std::vector<TraceEvent>& out);

    NormalizerConfig config_;
    ingest::IngestReport& report_;
    std::unordered_map<std::uint64_t, EventRole> roles_;
    SwitchTimeline timeline_;
    std::unordered_map<std::int32_t, std::uint64_t> lost_;
    PerfStatistics stats_;  // records lost and throttles
};

}  // namespace apcgate::collectors::perf
