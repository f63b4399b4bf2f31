// Who runs on each CPU, from a Perf-framing capture's own records, for the CPU time per thread
// and process (timeline_accounting.hpp). The kernel reports switches three ways, each read as
// the perf collector reads it live (collectors/perf/record_normalizer.hpp), with its code:
//   - sched:sched_switch samples (system-wide captures): prev, next and prev_state, decoded
//     with the layout of the capture's own FORMAT message for that tracepoint, and
//   - PERF_RECORD_SWITCH_CPU_WIDE records (system-wide, when the tracepoint is missing):
//     reconciled into one switch each by the collector's SwitchTimeline;
//   - PERF_RECORD_SWITCH records (following a command or --pid): "in" puts the followed task on
//     the CPU, "out" takes it off (the CPU then runs nothing that is followed).
// Wait states: prev_state (Io for D, Contention for a preempted task, else Other), or the
// switch-out record's preempt flag (Contention, else Other).
// Two things the switches alone miss: a task that was already running when the capture began
// runs from the first record that shows it current on its CPU (any record's sample_id names the
// task that was running as it was written), and a task's EXIT record takes it off its CPU. Both
// only when the capture has switch records or the tracepoint (without them nothing says when a
// task stops). Changes go to the accounting in time order across CPUs (switch_order.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "collectors/perf/switch_timeline.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"
#include "daemon/analysis/report.hpp"
#include "daemon/analysis/switch_order.hpp"
#include "daemon/analysis/timeline_accounting.hpp"
#include "protocol/perf_framing/capture_check.hpp"

namespace apcgate::daemon::analysis {

class PerfSwitches {
  public:
    explicit PerfSwitches(TimelineAccounting& timeline);

    // A PEA message's attr and a FORMAT message's text, as the PERF_ATTRS frames bring them.
    void attr(const perf_framing::PerfAttr& a);
    void format(std::string_view text);
    // ONLINE_CPU and OFFLINE_CPU messages: which CPUs' records to wait for.
    void cpu_online(std::int32_t cpu, bool online);
    void record(const perf_framing::RecordView& v);
    // Sends what still waits; call once, before the accounting's finish().
    void finish();

    [[nodiscard]] std::uint64_t switches() const { return switches_; }
    // Whether the capture can say when tasks stop (switch records or the tracepoint).
    [[nodiscard]] bool has_switch_source() const;
    void fill(Report& r) const;

  private:
    void apply(const TimelineChange& c);
    void change(std::int64_t ts, std::int32_t cpu, std::int32_t tid, model::WaitState wait,
                TimelineChange::Kind kind = TimelineChange::Kind::Switch);
    void sched_switch_sample(const perf_framing::RecordView& v, std::int64_t ts);
    void switch_record(const perf_framing::PerfRecord& r, std::int32_t cpu, std::int64_t ts);

    TimelineAccounting& timeline_;
    SwitchOrder order_;
    collectors::perf::SwitchTimeline reconciled_;
    std::unordered_map<std::uint64_t, collectors::perf::SchedSwitchLayout> layouts_;  // by id
    std::set<std::uint64_t> tracepoint_configs_;  // of the PEA attrs
    bool context_switch_attr_ = false;
    mutable std::optional<bool> has_source_;       // has_switch_source(), until attrs change
    std::unordered_set<std::int32_t> cpus_known_;  // a switch or a running task was seen
    std::unordered_map<std::int32_t, std::int32_t> running_;  // cpu -> tid, in time order
    std::uint64_t switches_ = 0;
    std::uint64_t from_tracepoint_ = 0;  // switches first told by sched_switch samples
    std::uint64_t undecodable_ = 0;      // sched_switch payloads that do not decode
    std::uint64_t without_format_ = 0;   // tracepoint samples with no FORMAT for their id
    std::uint64_t bad_formats_ = 0;      // FORMAT texts that do not parse
};

}  // namespace apcgate::daemon::analysis
