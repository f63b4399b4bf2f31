// The Linux perf collector: scheduler activity (Activity frames), sampled call stacks
// (Backtrace frames with cookies for images), the kernel's software counters and the hardware
// PMU (through libpfm4) per CPU, idle states, and the names of threads and processes kept
// current. System-wide by default; given pids it follows just those processes, their threads
// and their children (per-task events with inherit), which also works unprivileged.
//
// Lifetime: one PerfSource lives as long as the daemon. declare() probes what opens here (once)
// and offers only that; each capture's start() opens the events and starts the reader thread,
// stop() drains what is left and closes every fd and mapping.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/perf_reader.hpp"
#include "collectors/perf/probe.hpp"
#include "collectors/perf/switch_timeline.hpp"
#include "collectors/perf/tracepoint_release.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::perf {

struct PerfOptions {
    std::filesystem::path proc_root = "/proc";
    std::filesystem::path sys_root = "/sys";
    std::filesystem::path tracefs_root;     // empty: a mounted tracefs, else a private mount
    std::vector<std::int32_t> follow_pids;  // empty: the whole system
    // The followed pids are children held at a gate that exec only after start(): counting
    // starts at that exec (enable_on_exec), and /proc is not read for them beforehand.
    bool from_exec = false;
    EventOpener opener;  // empty: the real perf_event_open
    LogFn log;
    std::optional<std::vector<pmu::DetectedPmu>> pmus;  // empty: what libpfm4 detects
    std::size_t ring_bytes = 0;  // per CPU; 0: ring_bytes_for() (capture_plan.hpp)
    // Mapped events the reader holds for poll() at most before it leaves the rings to fill
    // (the kernel then counts what it drops); 0: ReaderConfig's default.
    std::size_t queued_events = 0;
    std::size_t drain_chunk_bytes = 0;  // 0: ReaderConfig's default
    // The captures forward the kernel's records as they are instead of decoding them (the Perf
    // framing): the switch records reach the capture's reader unchanged and nothing here
    // repairs a switch from them, so the repaired-switches counter is not offered.
    bool forwards_records = false;
    // A capture starts as soon as the source is declared (`record`): the probe's tracepoint
    // events stay open until the capture's own are (ProbeOptions::hold_tracepoints says why).
    // A daemon waiting for a client leaves it unset: an open tracepoint event costs every
    // context switch while it waits.
    bool capture_follows_probe = false;
    // How tracepoint events are closed, the probe's held ones and each capture's: Helper when
    // the process ends right after its capture (`record`), so the kernel's waits in their last
    // closes are left to a helper process (tracepoint_release.hpp).
    TracepointRelease tracepoint_release = TracepointRelease::Threads;
};

// At most this many events leave the source per poll (memory stays bounded per step: 1.5 MB
// of model events). Polled every 10 ms, that is 1.6 M events a second, twice what the highest
// switch rate seen here makes.
inline constexpr std::size_t kMaxEventsPerPoll = std::size_t{16} * 1024;

class PerfSource final : public Source {
  public:
    explicit PerfSource(PerfOptions options);
    ~PerfSource() override;

    [[nodiscard]] std::string_view name() const override { return "perf"; }
    void declare(model::CounterCatalog& catalog) override;
    Status start(const CaptureContext& ctx) override;
    [[nodiscard]] model::Nanos poll_period() const override { return 10'000'000; }
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

    [[nodiscard]] const Capabilities& capabilities() const { return caps_; }
    // Closes the tracepoint events the probe held for the first capture (capture_follows_probe);
    // start() does it itself, a capture that opens its own events instead calls it.
    void release_probe_events();
    [[nodiscard]] const PerfOptions& options() const { return options_; }
    // What the last capture read, mapped, skipped and found bad (after its stop()).
    [[nodiscard]] const std::optional<ingest::IngestReport>& last_report() const {
        return last_report_;
    }
    // What the last capture counted (after its stop()): the reader's, the kernel's, the switch
    // timeline's and the mapper's statistics together.
    [[nodiscard]] const PerfStatistics& last_statistics() const { return last_statistics_; }
    [[nodiscard]] std::vector<model::StatisticValue> statistics() const override {
        return last_statistics_.values();
    }
    [[nodiscard]] std::size_t open_fds() const;

  private:
    struct Capture;
    void log(LogLevel level, const std::string& text) const {
        if (options_.log) options_.log(level, text);
    }
    void close_capture();

    PerfOptions options_;
    Capabilities caps_;
    bool probed_ = false;
    std::vector<PerfFd> probe_held_;  // the probe's tracepoint events, until start() opens its own
    std::unique_ptr<Capture> capture_;
    std::optional<ingest::IngestReport> last_report_;
    PerfStatistics last_statistics_;
};

}  // namespace apcgate::collectors::perf
