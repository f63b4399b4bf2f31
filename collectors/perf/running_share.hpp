// The value of the CPU activity counter: for each CPU, the share of each counter period during
// which a task (not the idle task, and when following tasks, a followed one) ran on it, in
// hundredths of a percent. Fed in time order with the CPU's switches and the period ends
// (ActivityTickEv); the Activity frames say which thread ran, this says how busy the CPU was,
// so the chart Streamline draws for the counter is never empty.
//
// A CPU's state before its first switch is unknown: it counts as idle, unless that first switch
// is to the idle task (then something ran until it).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

class RunningShare {
  public:
    static constexpr std::int64_t kFull = 10'000;  // 100.00 %
    static constexpr std::size_t kMaxCpus = 4096;

    // A switch at `ts` on `cpu`: a task runs from now on (`running`) or the CPU idles.
    void on_switch(std::int32_t cpu, bool running, model::Nanos ts);
    // Ends the period of `cpu` at `ts`: its running share since the previous end (or since the
    // capture's start), or nothing for an empty period.
    std::optional<std::int64_t> end_period(std::int32_t cpu, model::Nanos ts);

  private:
    struct Cpu {
        bool seen_switch = false;
        bool running = false;
        model::Nanos since = 0;         // when `running` last changed or was last accounted
        model::Nanos period_start = 0;  // capture start for the first period
        model::Nanos busy = 0;          // ns a task ran in this period so far
    };
    Cpu* cpu(std::int32_t cpu);

    std::unordered_map<std::int32_t, Cpu> cpus_;
};

}  // namespace apcgate::collectors::perf
