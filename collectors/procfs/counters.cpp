#include "collectors/procfs/counters.hpp"

namespace apcgate::collectors::procfs {
namespace {

using model::CounterClass;
using model::Display;

model::CounterSpec base(CounterId id, const char* title, const char* name, const char* description,
                        CounterClass cls, const char* units) {
    model::CounterSpec s;
    s.counter = std::string(counter_name(id));
    s.category = "Linux";
    s.title = title;  // counters sharing a title share a chart in Streamline
    s.name = name;
    s.description = description;
    s.cls = cls;
    s.units = units;
    s.delivery = model::Delivery::Block;  // sampled together at one instant: one block per poll
    return s;
}

// CPU shares are hundredths of a percent. Averaging (over time and over cores) is the only
// meaningful way to zoom out or aggregate a percentage.
model::CounterSpec cpu(CounterId id, const char* name, const char* description) {
    auto s = base(id, "CPU Activity", name, description, CounterClass::Absolute, "%");
    s.per_cpu = true;
    s.display = Display::Average;
    s.multiplier = 0.01;
    s.average_selection = true;
    s.average_cores = true;
    return s;
}

model::CounterSpec memory(CounterId id, const char* name, const char* description) {
    auto s = base(id, "Memory", name, description, CounterClass::Absolute, "B");
    s.display = Display::Average;
    s.average_selection = true;
    return s;
}

// Load averages are already averages; stacking them would add 1-, 5- and 15-minute figures, so
// they are drawn as overlaid lines.
model::CounterSpec load(CounterId id, const char* name, const char* description) {
    auto s = base(id, "Load", name, description, CounterClass::Absolute, "");
    s.display = Display::Average;
    s.multiplier = 0.01;
    s.series_composition = "overlay";
    s.rendering_type = "line";
    s.average_selection = true;
    return s;
}

model::CounterSpec delta(CounterId id, const char* title, const char* name, const char* description,
                         const char* units) {
    auto s = base(id, title, name, description, CounterClass::Delta, units);
    s.display = Display::Accumulate;
    return s;
}

}  // namespace

model::CounterSpec counter_spec(CounterId id) {
    switch (id) {
        case CounterId::CpuUser:
            return cpu(id, "User", "Time this CPU ran user code, including niced processes");
        case CounterId::CpuSystem:
            return cpu(id, "System",
                       "Time this CPU ran kernel code, including interrupt and softirq handlers");
        case CounterId::CpuIdle: {
            // Off by default: stacked with User and System it only fills the chart to 100 %.
            auto s = cpu(id, "Idle", "Time this CPU was idle, including waiting for I/O");
            s.enabled_by_default = false;
            return s;
        }
        case CounterId::MemUsed:
            return memory(id, "Used",
                          "Memory in use: total minus free, buffers, page cache and reclaimable "
                          "slab (as free(1) counts it)");
        case CounterId::MemFree:
            return memory(id, "Free", "Memory not used for anything (MemFree)");
        case CounterId::MemCached:
            return memory(id, "Cached", "Page cache plus reclaimable slab (Cached + SReclaimable)");
        case CounterId::MemBuffers:
            return memory(id, "Buffers", "Block device buffers (Buffers)");
        case CounterId::Load1:
            return load(id, "1 minute", "Run queue length averaged over 1 minute");
        case CounterId::Load5: {
            auto s = load(id, "5 minutes", "Run queue length averaged over 5 minutes");
            s.enabled_by_default = false;  // a capture is usually shorter than 5 minutes
            return s;
        }
        case CounterId::Load15: {
            auto s = load(id, "15 minutes", "Run queue length averaged over 15 minutes");
            s.enabled_by_default = false;
            return s;
        }
        case CounterId::NetRx:
            return delta(id, "Network", "Receive", "Bytes received on all interfaces but lo", "B");
        case CounterId::NetTx:
            return delta(id, "Network", "Transmit", "Bytes sent on all interfaces but lo", "B");
        case CounterId::DiskRead:
            return delta(id, "Disk IO", "Read", "Bytes read from physical disks", "B");
        case CounterId::DiskWrite:
            return delta(id, "Disk IO", "Write", "Bytes written to physical disks", "B");
        case CounterId::ContextSwitches:
            return delta(id, "Scheduler", "Context switches", "Context switches on all CPUs", "");
        case CounterId::Interrupts:
            return delta(id, "Interrupts", "Total", "Hardware interrupts taken on all CPUs", "");
    }
    return {};
}

}  // namespace apcgate::collectors::procfs
