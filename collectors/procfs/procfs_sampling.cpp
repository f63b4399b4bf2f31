// ProcfsSource's hot path: one sample of every enabled counter group, each from one pread().
#include <algorithm>
#include <limits>

#include "collectors/procfs/loadavg.hpp"
#include "collectors/procfs/meminfo.hpp"
#include "collectors/procfs/procfs_source.hpp"

namespace apcgate::collectors::procfs {
namespace {

// CPU numbers above this are treated as garbage rather than sized into the baseline table.
constexpr int kMaxCpus = 65536;

std::int64_t clamp_to_i64(std::uint64_t v) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(std::min(v, kMax));
}

// A delta counter's increment; a counter that went backwards counts 0 (the caller re-baselines).
std::uint64_t increment(std::optional<std::uint64_t>& prev, std::uint64_t now) {
    const std::uint64_t d = prev && now >= *prev ? now - *prev : 0;
    prev = now;
    return d;
}

}  // namespace

void ProcfsSource::emit(std::vector<model::Event>& out, CounterId id, std::int64_t value,
                        int core) {
    const auto& key = keys_[index(id)];
    if (!key) return;
    out.emplace_back(model::CounterSample{now_, core, *key, value, -1});
}

void ProcfsSource::emit_delta(std::vector<model::Event>& out, CounterId id, std::uint64_t delta) {
    emit(out, id, clamp_to_i64(delta));
}

void ProcfsSource::sample(std::vector<model::Event>& out) {
    ++stats_[ProcfsStat::Samples];
    ++sample_no_;
    last_sample_ = now_;
    // Each group reads its file only when one of its counters is enabled in this capture.
    if (wanted(CounterId::CpuUser) || wanted(CounterId::CpuSystem) || wanted(CounterId::CpuIdle) ||
        wanted(CounterId::ContextSwitches) || wanted(CounterId::Interrupts))
        sample_stat(out);
    if (wanted(CounterId::MemUsed) || wanted(CounterId::MemFree) || wanted(CounterId::MemCached) ||
        wanted(CounterId::MemBuffers))
        sample_meminfo(out);
    if (wanted(CounterId::Load1) || wanted(CounterId::Load5) || wanted(CounterId::Load15))
        sample_loadavg(out);
    if (wanted(CounterId::NetRx) || wanted(CounterId::NetTx)) sample_net(out);
    if (wanted(CounterId::DiskRead) || wanted(CounterId::DiskWrite)) sample_disk(out);
}

void ProcfsSource::sample_stat(std::vector<model::Event>& out) {
    const auto text = read(stat_);
    if (!text) return;
    parse_proc_stat(*text, stat_parsed_);
    bool bad = stat_parsed_.malformed_lines > 0;

    if (wanted(CounterId::CpuUser) || wanted(CounterId::CpuSystem) || wanted(CounterId::CpuIdle)) {
        bad = bad || stat_parsed_.cpus.empty();
        for (const CpuLine& c : stat_parsed_.cpus) {
            if (c.cpu >= kMaxCpus) {
                bad = true;
                continue;
            }
            const auto i = static_cast<std::size_t>(c.cpu);
            if (i >= cpu_prev_.size()) cpu_prev_.resize(i + 1);
            CpuBaseline& prev = cpu_prev_[i];
            // The first sample (or the first after a gap) only sets the baseline: a share of
            // ticks needs an interval, and since-boot averages would mislead.
            if (prev.sample != 0 && prev.sample + 1 == sample_no_) {
                if (const auto u = cpu_utilisation(prev.times, c.times)) {
                    emit(out, CounterId::CpuUser, u->user, c.cpu);
                    emit(out, CounterId::CpuSystem, u->system, c.cpu);
                    emit(out, CounterId::CpuIdle, u->idle, c.cpu);
                }
            }
            prev = CpuBaseline{c.times, sample_no_};
        }
    }
    if (wanted(CounterId::ContextSwitches)) {
        if (stat_parsed_.ctxt)
            emit_delta(out, CounterId::ContextSwitches, increment(ctxt_prev_, *stat_parsed_.ctxt));
        else
            bad = true;
    }
    if (wanted(CounterId::Interrupts)) {
        if (stat_parsed_.intr)
            emit_delta(out, CounterId::Interrupts, increment(intr_prev_, *stat_parsed_.intr));
        else
            bad = true;
    }
    if (bad) ++stats_[ProcfsStat::ParseErrors];
}

void ProcfsSource::sample_meminfo(std::vector<model::Event>& out) {
    const auto text = read(meminfo_);
    if (!text) return;
    const MemInfo info = parse_meminfo(*text);
    const MemoryCounters m = memory_counters(info);
    bool bad = info.malformed_lines > 0;
    const std::pair<CounterId, const std::optional<std::uint64_t>*> values[] = {
        {CounterId::MemUsed, &m.used},
        {CounterId::MemFree, &m.free},
        {CounterId::MemCached, &m.cached},
        {CounterId::MemBuffers, &m.buffers},
    };
    for (const auto& [id, v] : values) {
        if (!wanted(id)) continue;
        if (*v)
            emit(out, id, clamp_to_i64(**v));
        else
            bad = true;
    }
    if (bad) ++stats_[ProcfsStat::ParseErrors];
}

void ProcfsSource::sample_loadavg(std::vector<model::Event>& out) {
    const auto text = read(loadavg_);
    if (!text) return;
    const auto l = parse_loadavg(*text);
    if (!l) {
        ++stats_[ProcfsStat::ParseErrors];
        return;
    }
    emit(out, CounterId::Load1, l->one);
    emit(out, CounterId::Load5, l->five);
    emit(out, CounterId::Load15, l->fifteen);
}

void ProcfsSource::sample_net(std::vector<model::Event>& out) {
    const auto text = read(net_dev_);
    if (!text) return;
    if (parse_net_dev(*text, net_lines_) > 0)
        ++stats_[ProcfsStat::ParseErrors];  // good lines still count
    std::uint64_t rx = 0, tx = 0;
    net_deltas_.begin_sample();
    for (const NetDevLine& d : net_lines_) {
        if (!counts_as_network(d.name)) continue;
        const auto inc = net_deltas_.update(d.name, d.rx_bytes, d.tx_bytes);
        rx += inc.a;
        tx += inc.b;
    }
    net_deltas_.end_sample();
    emit_delta(out, CounterId::NetRx, rx);
    emit_delta(out, CounterId::NetTx, tx);
}

void ProcfsSource::sample_disk(std::vector<model::Event>& out) {
    const auto text = read(diskstats_);
    if (!text) return;
    if (parse_diskstats(*text, disk_lines_) > 0) ++stats_[ProcfsStat::ParseErrors];
    std::uint64_t rd = 0, wr = 0;
    disk_deltas_.begin_sample();
    for (const DiskStatLine& d : disk_lines_) {
        if (!disk_filter_.counts(d.name)) continue;
        const auto inc = disk_deltas_.update(d.name, d.sectors_read, d.sectors_written);
        rd += inc.a;
        wr += inc.b;
    }
    disk_deltas_.end_sample();
    emit_delta(out, CounterId::DiskRead, rd * kDiskstatsSectorBytes);
    emit_delta(out, CounterId::DiskWrite, wr * kDiskstatsSectorBytes);
}

}  // namespace apcgate::collectors::procfs
