#include "collectors/ctf/ctf_counters.hpp"

#include <algorithm>

namespace apcgate::collectors::ctf {

namespace {

model::CounterSpec spec(std::string_view counter, std::string title, std::string name,
                        std::string description, model::CounterClass cls, std::string units = {}) {
    model::CounterSpec s;
    s.counter = std::string(counter);
    s.category = "CTF trace";
    s.title = std::move(title);
    s.name = std::move(name);
    s.description = std::move(description);
    s.cls = cls;
    s.display =
        cls == model::CounterClass::Activity ? model::Display::Average : model::Display::Accumulate;
    s.units = std::move(units);
    s.per_cpu = true;
    return s;
}

}  // namespace

void scan_trace_class(const bt_trace_class* trace_class, CounterNeeds& needs) {
    const std::uint64_t streams = bt_trace_class_get_stream_class_count(trace_class);
    for (std::uint64_t s = 0; s < streams; ++s) {
        const bt_stream_class* sc =
            bt_trace_class_borrow_stream_class_by_index_const(trace_class, s);
        for (auto& p : plan_stream(sc).perf) {
            const bool known =
                std::any_of(needs.perf.begin(), needs.perf.end(),
                            [&](const PerfContext& q) { return q.counter == p.counter; });
            if (!known) needs.perf.push_back(std::move(p));
        }
        const std::uint64_t events = bt_stream_class_get_event_class_count(sc);
        for (std::uint64_t e = 0; e < events; ++e) {
            switch (plan_event(bt_stream_class_borrow_event_class_by_index_const(sc, e)).kind) {
                case EventKind::IrqEntry:
                case EventKind::IrqExit:
                    needs.irq = true;
                    break;
                case EventKind::SoftirqEntry:
                case EventKind::SoftirqExit:
                    needs.softirq = true;
                    break;
                case EventKind::SchedSwitch:
                    needs.sched = true;
                    break;
                default:
                    break;
            }
        }
    }
}

void declare_counters(const CounterNeeds& needs, model::CounterCatalog& catalog) {
    using model::CounterClass;
    catalog.add(spec(counter::kDiscardedEvents, "CTF tracer", "Discarded events",
                     "Events the tracer dropped (ring buffer full), from the packet contexts",
                     CounterClass::Incident));
    catalog.add(spec(counter::kDiscardedPackets, "CTF tracer", "Discarded packets",
                     "Packets missing from the trace, from the packet sequence numbers",
                     CounterClass::Incident));
    if (needs.irq) {
        catalog.add(spec(counter::kIrqCount, "CTF interrupts", "IRQs", "irq_handler_entry events",
                         CounterClass::Incident));
        catalog.add(spec(counter::kIrqTime, "CTF interrupts", "IRQ time",
                         "Time between irq_handler_entry and irq_handler_exit",
                         CounterClass::Incident, "ns"));
    }
    if (needs.softirq) {
        catalog.add(spec(counter::kSoftirqCount, "CTF interrupts", "Softirqs",
                         "softirq entry events", CounterClass::Incident));
        catalog.add(spec(counter::kSoftirqTime, "CTF interrupts", "Softirq time",
                         "Time between softirq entry and exit", CounterClass::Incident, "ns"));
    }
    if (needs.sched) {
        auto s = spec(counter::kCpuActivity, "CTF scheduler", "CPU activity",
                      "Which thread runs on each core, from sched_switch", CounterClass::Activity);
        s.activities = {"Running"};
        s.activity_colors = {0x0000a0e0};
        s.cores = std::max(1, needs.cores);
        catalog.add(std::move(s));
    }
    for (const auto& p : needs.perf) {
        catalog.add(spec(p.counter, "CTF perf counters", p.label,
                         std::string("LTTng perf context ") +
                             (p.per_thread ? "perf:thread:" : "perf:cpu:") + p.label +
                             ", as the change between a thread's (or core's) events",
                         CounterClass::Delta));
    }
}

CounterKeys counter_keys(const model::CaptureCounters& counters) {
    CounterKeys k;
    k.irq_count = counters.key(counter::kIrqCount);
    k.irq_time = counters.key(counter::kIrqTime);
    k.softirq_count = counters.key(counter::kSoftirqCount);
    k.softirq_time = counters.key(counter::kSoftirqTime);
    k.discarded_events = counters.key(counter::kDiscardedEvents);
    k.discarded_packets = counters.key(counter::kDiscardedPackets);
    k.cpu_activity = counters.key(counter::kCpuActivity);
    return k;
}

}  // namespace apcgate::collectors::ctf
