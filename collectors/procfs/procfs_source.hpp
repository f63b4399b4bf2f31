// The /proc and /sys collector: system-wide CPU, memory, load, network, disk, scheduler and
// interrupt counters sampled by polling, plus the names of the threads alive at capture start.
// Everything it reads lives under two injectable roots so tests can run it on a fake tree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "collectors/procfs/counters.hpp"
#include "collectors/procfs/device_deltas.hpp"
#include "collectors/procfs/diskstats.hpp"
#include "collectors/procfs/file_reader.hpp"
#include "collectors/procfs/net_dev.hpp"
#include "collectors/procfs/proc_stat.hpp"
#include "collectors/procfs/process_scan.hpp"
#include "collectors/procfs/procfs_statistics.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::procfs {

// No /proc counter advances faster than the 1/USER_HZ = 10 ms tick /proc/stat counts CPU time
// in (USER_HZ is 100 on every architecture), so faster polling would only repeat values.
inline constexpr model::Nanos kMinPollPeriod = 10'000'000;

// Which threads the source names at capture start. A capture that follows chosen processes
// leaves naming to the collector that follows them (it names what it follows, from the kernel's
// records or its own read of those processes): reading every process on the system would only
// name threads the capture never shows, and costs a command's capture most of its start-up.
enum class ThreadNaming { EveryThread, None };

class ProcfsSource final : public Source {
  public:
    explicit ProcfsSource(std::filesystem::path proc_root = "/proc",
                          std::filesystem::path sys_root = "/sys",
                          std::size_t max_threads = kDefaultMaxThreads,
                          ThreadNaming naming = ThreadNaming::EveryThread);

    [[nodiscard]] std::string_view name() const override { return "procfs"; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    [[nodiscard]] model::Nanos poll_period() const override { return period_; }
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

    // What the source counted in the running or last capture.
    [[nodiscard]] const ProcfsStatistics& stats() const { return stats_; }
    [[nodiscard]] std::vector<model::StatisticValue> statistics() const override {
        return stats_.values();
    }
    [[nodiscard]] std::vector<model::CoreName> core_names() const;

    // The poll period for these settings: 1 / sample rate, or the live rate when sampling is
    // off (100 ms when that is 0 too), never below kMinPollPeriod.
    static model::Nanos period_for(const model::CaptureSettings& settings);

  private:
    [[nodiscard]] bool wanted(CounterId id) const { return keys_[index(id)].has_value(); }
    static std::size_t index(CounterId id) { return static_cast<std::size_t>(id); }
    void emit(std::vector<model::Event>& out, CounterId id, std::int64_t value, int core = 0);
    void emit_delta(std::vector<model::Event>& out, CounterId id, std::uint64_t delta);

    void sample(std::vector<model::Event>& out);
    void sample_stat(std::vector<model::Event>& out);
    void sample_meminfo(std::vector<model::Event>& out);
    void sample_loadavg(std::vector<model::Event>& out);
    void sample_net(std::vector<model::Event>& out);
    void sample_disk(std::vector<model::Event>& out);
    // The file's content, or nullopt after counting a read error.
    std::optional<std::string_view> read(PolledFile& f);

    std::filesystem::path proc_root_, sys_root_;
    std::size_t max_threads_;
    ThreadNaming naming_;

    PolledFile stat_, meminfo_, loadavg_, net_dev_, diskstats_;
    DiskFilter disk_filter_;

    // Per capture.
    std::array<std::optional<model::CounterKey>, kCounterCount> keys_{};
    model::Nanos period_ = 100'000'000;
    model::Nanos now_ = 0;               // timestamp of the sample being taken
    model::Nanos last_sample_ = -1;      // timestamp of the previous sample (-1: none yet)
    std::uint64_t sample_no_ = 0;        // samples taken in this capture
    std::vector<model::Event> pending_;  // thread names from start(), handed out by poll()

    // Baselines. Per CPU: times at the previous sample and the sample number they belong to,
    // so a CPU that missed a sample (went offline) starts over instead of spanning the gap.
    struct CpuBaseline {
        CpuTimes times;
        std::uint64_t sample = 0;
    };
    std::vector<CpuBaseline> cpu_prev_;
    std::optional<std::uint64_t> ctxt_prev_, intr_prev_;
    DeviceDeltas net_deltas_, disk_deltas_;

    // Scratch reused every sample so the hot path does not allocate.
    ProcStat stat_parsed_;
    std::vector<NetDevLine> net_lines_;
    std::vector<DiskStatLine> disk_lines_;

    ProcfsStatistics stats_;
};

}  // namespace apcgate::collectors::procfs
