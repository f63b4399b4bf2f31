// What perf events open on this machine, found once at start-up by opening (and closing) one of
// each kind, so the counters XML offers only what works and the log says why the rest does not
// (no PMU, perf_event_paranoid, no tracefs, ...). System-wide mode probes CPU-wide events on the
// first online CPU; follow mode probes events on the daemon itself, as an unprivileged user
// would get them for its own processes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collectors/perf/counter_specs.hpp"
#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/tracefs.hpp"
#include "collectors/pmu/pmu_probe.hpp"

namespace apcgate::collectors::perf {

struct ProbeOptions {
    bool follow = false;  // per-task events instead of CPU-wide ones
    std::filesystem::path proc_root = "/proc";
    std::filesystem::path sys_root = "/sys";
    std::filesystem::path tracefs_root;  // empty: find or mount one
    EventOpener opener;
    // The PMUs to consider; unset: what libpfm4 detects.
    std::optional<std::vector<pmu::DetectedPmu>> pmus;
    // Where the tracepoint events the probe opened are kept open instead of closed; null:
    // closed at once. The last close of a tracepoint's perf events waits for an RCU grace period
    // (the kernel unregisters its probe), 10-15 ms each here: a capture that starts right after
    // the probe keeps them until its own are open, so the tracepoints stay registered between.
    std::vector<PerfFd>* hold_tracepoints = nullptr;
};

struct Capabilities {
    bool usable = false;  // something opens at all
    bool kernel = false;  // events may count and sample kernel code
    std::optional<int> paranoid;
    std::vector<int> cpus;  // online CPUs
    bool clock_sampling = false;
    bool switch_records = false;  // PERF_RECORD_SWITCH(_CPU_WIDE) side-band
    std::optional<TracepointInfo> sched_switch;
    std::optional<TracepointInfo> cpu_idle;
    std::vector<const SoftwareCounter*> software;
    std::vector<HwCluster> clusters;
    std::vector<std::string> notes;  // one line per thing that does not work here, with why
    std::string tracefs;             // where tracepoint descriptions came from

    [[nodiscard]] bool activity() const { return sched_switch.has_value() || switch_records; }
};

Capabilities probe_capabilities(const ProbeOptions& options);

// "0-3,6" (sysfs CPU lists) -> {0,1,2,3,6}; empty when malformed.
std::vector<int> parse_cpu_list(std::string_view text);

// Distinct cpuids ((implementer << 12) | part) of the cores in a /proc/cpuinfo text, in order.
std::vector<std::uint32_t> cpuinfo_cpuids(std::string_view text);

}  // namespace apcgate::collectors::perf
