#include "collectors/procfs/procfs_source.hpp"

#include <algorithm>

#include "collectors/procfs/cpu_info.hpp"
#include "collectors/procfs/loadavg.hpp"
#include "collectors/procfs/meminfo.hpp"

namespace apcgate::collectors::procfs {

ProcfsSource::ProcfsSource(std::filesystem::path proc_root, std::filesystem::path sys_root,
                           std::size_t max_threads, ThreadNaming naming)
    : proc_root_(std::move(proc_root)),
      sys_root_(std::move(sys_root)),
      max_threads_(max_threads),
      naming_(naming),
      stat_(proc_root_ / "stat"),
      meminfo_(proc_root_ / "meminfo"),
      loadavg_(proc_root_ / "loadavg"),
      net_dev_(proc_root_ / "net/dev"),
      diskstats_(proc_root_ / "diskstats"),
      disk_filter_(sys_root_) {}

void ProcfsSource::declare(model::CounterCatalog& catalog) {
    // Offer only what this target can deliver: each group needs its file to exist and parse now.
    std::string text;
    const auto add = [&](CounterId id) { catalog.add(counter_spec(id)); };
    if (read_file(proc_root_ / "stat", text)) {
        const ProcStat s = parse_proc_stat(text);
        if (!s.cpus.empty())
            for (auto id : {CounterId::CpuUser, CounterId::CpuSystem, CounterId::CpuIdle}) add(id);
        if (s.ctxt) add(CounterId::ContextSwitches);
        if (s.intr) add(CounterId::Interrupts);
    }
    if (read_file(proc_root_ / "meminfo", text)) {
        const MemoryCounters m = memory_counters(parse_meminfo(text));
        if (m.used) add(CounterId::MemUsed);
        if (m.free) add(CounterId::MemFree);
        if (m.cached) add(CounterId::MemCached);
        if (m.buffers) add(CounterId::MemBuffers);
    }
    if (read_file(proc_root_ / "loadavg", text) && parse_loadavg(text))
        for (auto id : {CounterId::Load1, CounterId::Load5, CounterId::Load15}) add(id);
    if (read_file(proc_root_ / "net/dev", text) && parse_net_dev(text, net_lines_) == 0)
        for (auto id : {CounterId::NetRx, CounterId::NetTx}) add(id);
    if (read_file(proc_root_ / "diskstats", text) && disk_filter_.available() &&
        parse_diskstats(text, disk_lines_) == 0)
        for (auto id : {CounterId::DiskRead, CounterId::DiskWrite}) add(id);
    net_lines_.clear();
    disk_lines_.clear();
}

void ProcfsSource::describe(model::TargetInfo& target) {
    const model::TargetInfo probed = probe_target(proc_root_, sys_root_);
    if (!probed.name.empty()) target.name = probed.name;
    target.cores = probed.cores;
    target.cpuid = probed.cpuid;
}

std::vector<model::CoreName> ProcfsSource::core_names() const {
    return read_core_names(proc_root_);
}

model::Nanos ProcfsSource::period_for(const model::CaptureSettings& settings) {
    const int hz = model::sample_rate_hz(settings.sample_rate);
    model::Nanos period = 0;
    if (hz > 0) {
        period = model::kNanosPerSecond / hz;
    } else {
        const int live_ms = settings.live_rate_ms > 0 ? settings.live_rate_ms : 100;
        period = static_cast<model::Nanos>(live_ms) * 1'000'000;
    }
    return std::max(period, kMinPollPeriod);
}

Status ProcfsSource::start(const CaptureContext& ctx) {
    for (std::size_t i = 0; i < kCounterCount; ++i) keys_[i] = ctx.counters.key(kCounterNames[i]);
    period_ = period_for(ctx.settings);
    stats_ = {};  // statistics are per capture
    now_ = 0;
    last_sample_ = -1;
    sample_no_ = 0;
    cpu_prev_.clear();
    ctxt_prev_.reset();
    intr_prev_.reset();
    net_deltas_.clear();
    disk_deltas_.clear();
    disk_filter_.forget();  // disks may have come and gone since the last capture

    pending_.clear();
    if (naming_ == ThreadNaming::EveryThread)
        scan_threads(proc_root_, max_threads_, pending_, stats_);
    return {};
}

PollResult ProcfsSource::poll(model::Nanos now, std::vector<model::Event>& out) {
    // Thread names carry ts 0, so they precede this poll's samples.
    if (!pending_.empty()) {
        out.insert(out.end(), std::make_move_iterator(pending_.begin()),
                   std::make_move_iterator(pending_.end()));
        pending_.clear();
    }
    now_ = std::max(now, last_sample_);  // never step back on the timeline
    sample(out);
    return {now_, false};
}

void ProcfsSource::stop(model::Nanos now, std::vector<model::Event>& out) {
    if (!pending_.empty()) {  // stopped before the first poll: names are still due
        out.insert(out.end(), std::make_move_iterator(pending_.begin()),
                   std::make_move_iterator(pending_.end()));
        pending_.clear();
    }
    if (now > last_sample_) {  // close the last interval
        now_ = now;
        sample(out);
    }
    // Release the descriptors between captures; the next start reopens on first read.
    for (PolledFile* f : {&stat_, &meminfo_, &loadavg_, &net_dev_, &diskstats_}) f->close();
}

std::optional<std::string_view> ProcfsSource::read(PolledFile& f) {
    auto text = f.read();
    if (!text) ++stats_[ProcfsStat::ReadErrors];
    return text;
}

}  // namespace apcgate::collectors::procfs
