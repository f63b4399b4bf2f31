// Decodes the raw payloads (PERF_SAMPLE_RAW) of the two tracepoints this collector opens, at the
// offsets the kernel's format files give (tracepoint_format.hpp). Layout on this machine's
// kernel, for reference only (the code never assumes it):
//
//   sched:sched_switch  := common(8) char prev_comm[16] pid_t prev_pid int prev_prio
//                          long prev_state char next_comm[16] pid_t next_pid int next_prio
//   power:cpu_idle      := common(8) u32 state u32 cpu_id      (state 0xffffffff: exit)
//
// prev_state holds the task state bits of include/linux/sched.h (S=1, D=2, ...) and, when the
// task was preempted while runnable, the bit above the highest state the print fmt lists
// (TASK_REPORT_MAX: 0x100 on 6.x kernels). No I/O.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "collectors/perf/tracepoint_format.hpp"
#include "protocol/model/event.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::perf {

// prev_state's "D" (include/linux/sched.h TASK_UNINTERRUPTIBLE): asleep, not woken by signals.
inline constexpr std::uint64_t kTaskUninterruptible = 0x2;
// A sched:sched_switch filter (the kernel's Documentation/trace/events.rst, "Event filtering")
// keeping the switches away from a task in uninterruptible sleep only: the one wait state (Io)
// the switch records' preempt flag cannot tell.
inline constexpr const char* kUninterruptibleSwitchFilter = "prev_state & 2";

struct SchedSwitchFields {
    std::string prev_comm;
    std::int32_t prev_tid = 0;
    std::int64_t prev_state = 0;
    std::string next_comm;
    std::int32_t next_tid = 0;
};

class SchedSwitchLayout {
  public:
    // Fails when a needed field is missing or has an unusable size.
    static Result<SchedSwitchLayout> from(const TracepointFormat& format);

    [[nodiscard]] Result<SchedSwitchFields> decode(std::span<const std::uint8_t> raw,
                                                   std::uint64_t offset,
                                                   std::string_view input) const;
    // Why the previous task stopped: preempted/runnable -> Contention, uninterruptible sleep
    // (D) -> Io, anything else (waiting on an event, stopped, idle) -> Other.
    [[nodiscard]] model::WaitState wait_state(std::int64_t prev_state) const;
    [[nodiscard]] std::uint64_t preempt_bit() const { return preempt_bit_; }

  private:
    TracepointField prev_comm_, prev_pid_, prev_state_, next_comm_, next_pid_;
    std::uint64_t preempt_bit_ = 0;  // 0: the print fmt did not say
};

struct CpuIdleFields {
    std::int32_t state = -1;  // -1: the CPU left idle
    std::int32_t cpu = 0;
};

class CpuIdleLayout {
  public:
    static Result<CpuIdleLayout> from(const TracepointFormat& format);
    [[nodiscard]] Result<CpuIdleFields> decode(std::span<const std::uint8_t> raw,
                                               std::uint64_t offset, std::string_view input) const;

  private:
    TracepointField state_, cpu_;
};

// The highest flag value in the print fmt's __print_flags list ({ 0x80, "I" } -> 0x80), 0 if
// there is none.
std::uint64_t highest_print_flag(std::string_view print_fmt);

}  // namespace apcgate::collectors::perf
