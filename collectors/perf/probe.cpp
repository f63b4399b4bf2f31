#include "collectors/perf/probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>

#include "collectors/perf/event_attrs.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"
#include "collectors/pmu/pmu_naming.hpp"

namespace apcgate::collectors::perf {
namespace {

std::string read_text(const std::filesystem::path& p, std::size_t limit = 1u << 20) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    std::string s(limit, '\0');
    in.read(s.data(), static_cast<std::streamsize>(limit));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

std::optional<int> parse_int(std::string_view s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

class Prober {
  public:
    Prober(const ProbeOptions& o, int cpu) : o_(o), cpu_(cpu) {}
    // 0 on success, else -errno. CPU-wide unless following (then: this process, any CPU). A
    // tracepoint's event goes to o.hold_tracepoints when that is set.
    int open(perf_event_attr a, bool cpu_wide = false) const {
        const bool per_task = o_.follow && !cpu_wide;
        const int fd = o_.opener(a, per_task ? 0 : -1, per_task ? -1 : cpu_, -1, 0);
        if (fd < 0) return fd;
        PerfFd owned(fd);
        if (a.type == PERF_TYPE_TRACEPOINT && o_.hold_tracepoints != nullptr)
            o_.hold_tracepoints->push_back(std::move(owned));
        return 0;
    }
    [[nodiscard]] int cpu() const { return o_.follow ? -1 : cpu_; }

  private:
    const ProbeOptions& o_;
    int cpu_;
};

std::string paranoid_hint(const Capabilities& c) {
    if (!c.paranoid) return "";
    return " (kernel.perf_event_paranoid = " + std::to_string(*c.paranoid) + ")";
}

void probe_tracepoints(const ProbeOptions& o, const Prober& p, const AttrCommon& ac,
                       Capabilities& caps) {
    if (!caps.kernel) {
        caps.notes.push_back(
            "tracepoints (sched:sched_switch, power:cpu_idle) need root or "
            "CAP_PERFMON" +
            paranoid_hint(caps) +
            ": context switches come from PERF_RECORD_SWITCH instead, whose wait "
            "states only tell preempted from not");
        return;
    }
    TracefsProbe tp =
        read_tracepoints({"sched/sched_switch", "power/cpu_idle"}, o.tracefs_root, o.proc_root);
    caps.tracefs = tp.where;
    for (auto& problem : tp.problems) caps.notes.push_back(std::move(problem));
    if (auto it = tp.found.find("sched/sched_switch"); it != tp.found.end()) {
        if (auto layout = SchedSwitchLayout::from(it->second.format); !layout)
            caps.notes.push_back("sched:sched_switch: " + layout.error().to_string());
        else if (const int err = p.open(tracepoint_attr(ac, it->second.id)); err == 0)
            caps.sched_switch = it->second;
        else
            caps.notes.push_back(open_failure("sched:sched_switch", p.cpu(), err));
    }
    if (auto it = tp.found.find("power/cpu_idle"); it != tp.found.end()) {
        // Idle is a property of CPUs: always CPU-wide, also when following tasks.
        if (auto layout = CpuIdleLayout::from(it->second.format); !layout)
            caps.notes.push_back("power:cpu_idle: " + layout.error().to_string());
        else if (const int err = p.open(tracepoint_attr(ac, it->second.id), true); err == 0)
            caps.cpu_idle = it->second;
        else
            caps.notes.push_back(open_failure("power:cpu_idle", -1, err) + ": no Idle frames");
    }
}

void probe_hardware(const ProbeOptions& o, const Prober& p, const AttrCommon& ac,
                    Capabilities& caps) {
    const std::vector<pmu::DetectedPmu> pmus = o.pmus ? *o.pmus : pmu::detect_pmus(o.sys_root);
    if (pmus.empty()) {
        caps.notes.push_back(
            pmu::kernel_lists_hardware_pmu(o.sys_root)
                ? "libpfm4 recognises no hardware PMU on this CPU: no hardware counters"
                : "the kernel lists no hardware PMU (" +
                      (o.sys_root / "bus/event_source/devices").string() +
                      "): no hardware counters");
        return;
    }
    // One cluster per distinct Arm core type (big.LITTLE); any other CPU is one generic cluster.
    std::vector<std::uint32_t> cpuids = cpuinfo_cpuids(read_text(o.proc_root / "cpuinfo"));
    if (cpuids.empty()) cpuids.push_back(0);
    for (const std::uint32_t cpuid : cpuids) {
        const std::string wanted = pmu::libpfm_arm_pmu(cpuid);
        auto it = std::find_if(pmus.begin(), pmus.end(),
                               [&](const pmu::DetectedPmu& d) { return d.name == wanted; });
        const pmu::DetectedPmu& d = it != pmus.end() ? *it : pmus.front();
        const std::string prefix = pmu::counter_set_prefix(cpuid);
        if (std::any_of(caps.clusters.begin(), caps.clusters.end(),
                        [&](const HwCluster& c) { return c.prefix == prefix; }))
            continue;
        const int err = p.open(counter_attr(ac, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES));
        if (err != 0) {
            caps.notes.push_back("libpfm4 recognises the " + d.name + " PMU (" + d.description +
                                 ") but " + open_failure("cycles", p.cpu(), err) +
                                 ": no hardware counters (a VM without PMU passthrough?)");
            continue;
        }
        HwCluster c;
        c.prefix = prefix;
        c.pmu = d.name;
        const std::string core = pmu::arm_core_name(cpuid);
        c.title = core.empty() ? d.description : core;
        c.slots = std::max(1, d.generic_counters);
        c.events = pmu::list_pmu_events(d.name);
        if (!c.events.empty()) c.raw_type = c.events.front().perf_type;
        caps.clusters.push_back(std::move(c));
    }
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
    std::vector<int> out;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text.remove_prefix(comma == std::string_view::npos ? text.size() : comma + 1);
        const std::size_t dash = item.find('-');
        const auto lo = parse_int(item.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : parse_int(item.substr(dash + 1));
        if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 65535) return {};
        for (int c = *lo; c <= *hi; ++c) out.push_back(c);
    }
    return out;
}

std::vector<std::uint32_t> cpuinfo_cpuids(std::string_view text) {
    std::vector<std::uint32_t> out;
    std::uint32_t implementer = 0;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        std::string_view key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        if (value.rfind("0x", 0) == 0) value.remove_prefix(2);
        std::uint32_t v = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v, 16);
        if (ec != std::errc()) continue;
        if (key == "CPU implementer") implementer = v;
        if (key == "CPU part") {
            const std::uint32_t id = (implementer << 12) | v;
            if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
        }
    }
    return out;
}

Capabilities probe_capabilities(const ProbeOptions& o) {
    Capabilities caps;
    caps.paranoid = parse_int(read_text(o.proc_root / "sys/kernel/perf_event_paranoid", 64));
    caps.cpus = parse_cpu_list(read_text(o.sys_root / "devices/system/cpu/online", 4096));
    if (caps.cpus.empty())
        for (long c = 0; c < ::sysconf(_SC_NPROCESSORS_ONLN); ++c)
            caps.cpus.push_back(static_cast<int>(c));
    if (caps.cpus.empty()) caps.cpus.push_back(0);
    const Prober p(o, caps.cpus.front());

    AttrCommon ac;
    ac.kernel = true;
    int err = p.open(counter_attr(ac, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK));
    if (err != 0) {
        ac.kernel = false;  // unprivileged: user-space only
        const int user_err = p.open(counter_attr(ac, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK));
        if (user_err != 0) {
            caps.notes.push_back((o.follow ? "" : "system-wide ") +
                                 open_failure("cpu-clock", p.cpu(), user_err) +
                                 paranoid_hint(caps) + ": no perf data");
            return caps;
        }
        caps.notes.push_back("kernel code is excluded from samples and counts: " +
                             open_failure("cpu-clock, kernel included", p.cpu(), err) +
                             paranoid_hint(caps));
    }
    caps.usable = true;
    caps.kernel = ac.kernel;

    if ((err = p.open(clock_sampler_attr(ac, 1000, true))) == 0)
        caps.clock_sampling = true;
    else
        caps.notes.push_back(open_failure("cpu-clock sampling", p.cpu(), err) + ": no call paths");
    for (const SoftwareCounter& sw : kSoftwareCounters) {
        if (sw.per_task_only && !o.follow) {
            caps.notes.push_back(std::string(sw.counter) +
                                 " counts tasks, not CPUs: offered when following processes "
                                 "(record -- CMD, record --pid)");
        } else if (sw.kernel_only && !caps.kernel) {
            caps.notes.push_back(std::string(sw.counter) +
                                 " counts only kernel work, which this user may not count" +
                                 paranoid_hint(caps));
        } else if ((err = p.open(counter_attr(ac, PERF_TYPE_SOFTWARE, sw.config))) == 0) {
            caps.software.push_back(&sw);
        } else {
            caps.notes.push_back(open_failure(std::string(sw.counter), p.cpu(), err));
        }
    }
    if ((err = p.open(sideband_attr(ac, true, 4096))) == 0)
        caps.switch_records = true;
    else
        caps.notes.push_back(open_failure("context-switch records", p.cpu(), err));
    probe_tracepoints(o, p, ac, caps);
    probe_hardware(o, p, ac, caps);
    return caps;
}

}  // namespace apcgate::collectors::perf
