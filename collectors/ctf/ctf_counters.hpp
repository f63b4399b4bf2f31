// The counters a CTF trace can fill, declared once from what the trace's classes hold: kernel
// interrupt entry/exit events become per-core interrupt counts and time spent, sched_switch the
// CPU activity chart, LTTng perf contexts one counter each, and discarded events and packets
// (what the tracer lost) are always declared so a capture shows that nothing, or how much, was
// lost.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/ctf/event_plan.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::ctf {

namespace counter {
inline constexpr std::string_view kIrqCount = "CTF_irq";
inline constexpr std::string_view kIrqTime = "CTF_irq_time";
inline constexpr std::string_view kSoftirqCount = "CTF_softirq";
inline constexpr std::string_view kSoftirqTime = "CTF_softirq_time";
inline constexpr std::string_view kDiscardedEvents = "CTF_discarded_events";
inline constexpr std::string_view kDiscardedPackets = "CTF_discarded_packets";
inline constexpr std::string_view kCpuActivity = "CTF_cpu_activity";
}  // namespace counter

// What the traces' classes ask for.
struct CounterNeeds {
    bool irq = false;
    bool softirq = false;
    bool sched = false;
    std::vector<PerfContext> perf;  // one per distinct counter name
    int cores = 1;                  // for the activity counter
};

// Adds what the stream and event classes of `trace_class` ask for.
void scan_trace_class(const bt_trace_class* trace_class, CounterNeeds& needs);

void declare_counters(const CounterNeeds& needs, model::CounterCatalog& catalog);

// The capture's keys for the counters above (nullopt: not enabled in this capture).
struct CounterKeys {
    std::optional<model::CounterKey> irq_count, irq_time, softirq_count, softirq_time;
    std::optional<model::CounterKey> discarded_events, discarded_packets, cpu_activity;
};

CounterKeys counter_keys(const model::CaptureCounters& counters);

}  // namespace apcgate::collectors::ctf
