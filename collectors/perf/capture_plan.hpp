// Decides what one capture opens, from what this machine allows (Capabilities), the session's
// settings and the configured counters: which context-switch source, the cpu-clock rate and
// call stacks, the software and hardware counters (a configured slot's event programs its PMU;
// a `count` makes that counter drive event-based sampling). Pure: no kernel calls.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collectors/perf/perf_session.hpp"
#include "collectors/perf/probe.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::perf {

struct PlannedCapture {
    SessionPlan session;
    NormalizerConfig normalizer;
    std::optional<model::CounterKey> activity_key;
    std::optional<model::CounterKey> lost_key;
    std::optional<model::CounterKey> repaired_switches_key;
    model::Nanos counter_period = 0;
    std::vector<std::string> ignored;  // configured counters this collector cannot program
};

// `targets`: tids to follow, or {-1} for the whole system.
PlannedCapture plan_capture(const Capabilities& caps, const CaptureContext& ctx,
                            std::vector<pid_t> targets, bool from_exec);

// Bytes of ring data area per CPU.
std::size_t ring_bytes_for(bool privileged, std::size_t cpus);

// How often counters are read: once per sample period (never under 10 ms), or at the live rate
// when sampling is off.
model::Nanos counter_period_for(const model::CaptureSettings& settings);

}  // namespace apcgate::collectors::perf
