// The live collectors of this target: /proc and /sys, application annotations (unless
// --no-annotate) and perf (the whole system or the processes `record` follows; it forwards its
// raw records in the Perf framing, and the set keeps a handle to it for that framing); each
// declares its counters into the one catalog. Then the target is named (its host name, unless
// a source named it) and the PMUs libpfm4 recognises are logged.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "collectors/annotate/annotate_source.hpp"
#include "collectors/perf/perf_source.hpp"
#include "collectors/pmu/pmu_probe.hpp"
#include "collectors/procfs/cpu_info.hpp"
#include "collectors/procfs/procfs_source.hpp"
#include "daemon/capture/collectors_setup.hpp"
#include "daemon/service/log_text.hpp"

namespace apcgate::daemon {

namespace {

// The collectors' log lines, into the daemon's log. They may quote what a local client sent
// (annotation applications name themselves), so each is kept to one escaped line.
collectors::LogFn spdlog_sink() {
    return [](collectors::LogLevel level, const std::string& line) {
        constexpr std::size_t kLongestLine = 1000;
        const std::string safe = loggable(line, kLongestLine);
        if (level == collectors::LogLevel::Warn)
            spdlog::warn("{}", safe);
        else if (level == collectors::LogLevel::Info)
            spdlog::info("{}", safe);
        else
            spdlog::debug("{}", safe);
    };
}

}  // namespace

CollectorSet make_live_collectors(const LiveCollectorOptions& options, Framing framing) {
    CollectorSet set;
    // Following processes, the perf collector names them; system-wide, /proc names everyone.
    const auto naming = options.follow_pids.empty() ? collectors::procfs::ThreadNaming::EveryThread
                                                    : collectors::procfs::ThreadNaming::None;
    auto procfs = std::make_unique<collectors::procfs::ProcfsSource>(
        options.proc_root, options.sys_root, collectors::procfs::kDefaultMaxThreads, naming);
    set.cores = procfs->core_names();
    set.sources.push_back(std::move(procfs));
    if (options.annotate) {
        namespace an = collectors::annotate;
        set.sources.push_back(std::make_unique<an::AnnotateSource>(
            an::make_config(options.annotate_socket_name, options.annotate_tcp_port,
                            options.annotate_fifo),
            spdlog_sink()));
    }
    // libpfm4 names the CPU's PMU from CPUID/MIDR; whether the kernel lets us open it (VMs
    // often do not) is for the perf collector to probe. Detected once, here: each detection
    // loads libpfm4 afresh (collectors/pmu/libpfm.hpp).
    auto pmus = collectors::pmu::detect_pmus(options.sys_root);
    for (const auto& p : pmus)
        spdlog::debug("libpfm4 PMU {} ({}): {} counters + {} fixed", p.name, p.description,
                      p.generic_counters, p.fixed_counters);
    {
        // Scheduler activity, call stacks, software and hardware counters: system-wide, or just
        // the processes `record` follows.
        namespace pf = collectors::perf;
        pf::PerfOptions po;
        po.pmus = std::move(pmus);
        po.proc_root = options.proc_root;
        po.sys_root = options.sys_root;
        po.follow_pids = options.follow_pids;
        po.from_exec = options.follow_from_exec;
        po.log = spdlog_sink();
        po.forwards_records = framing == Framing::Perf;
        po.capture_follows_probe = options.capture_follows_probe;
        if (options.exits_after_capture) po.tracepoint_release = pf::TracepointRelease::Helper;
        auto perf = std::make_unique<pf::PerfSource>(std::move(po));
        set.perf = perf.get();
        set.sources.push_back(std::move(perf));
    }
    set.declare_all();
    if (set.target.name.empty()) {
        char host[256] = {};
        if (::gethostname(host, sizeof host - 1) == 0) set.target.name = host;
    }
    spdlog::debug("target {}: {} cores, cpuid {:#x}, {} counters", set.target.name,
                  set.target.cores, set.target.cpuid, set.catalog.counters().size());
    return set;
}

}  // namespace apcgate::daemon
