// A live capture in the Perf-type framing (gatord 9.x's; `--framing perf`): the perf events are
// opened as gatord opens its own (collectors/perf/forwarded_events.hpp) and their ring-buffer
// records forwarded unchanged as PERF_DATA frames; names, images and kernel symbols go out as
// PERF_ATTRS messages; /proc and /sys counters as Block Counter frames; application
// annotations as External frames. The sink gets, in order: Summary; PEA and FORMAT (the
// kernel's format file of each tracepoint opened); COMM (every thread); KERNEL_BUILD_ID; KEYS
// per CPU; then (events enabled) ONLINE_CPU per CPU, MAPS per process, KALLSYMS; then at every
// poll PERF_DATA per CPU, one Block Counter frame and the annotation bytes that arrived
// (External frames), and a flush. Tasks that start later are named by the kernel's own COMM,
// FORK and MMAP2 records. Nothing is decoded on the way: a record costs a copy and its
// packing. Records the kernel could not write (a full ring) arrive as LOST records, which are
// counted and reported at the end.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "collectors/perf/forwarded_events.hpp"
#include "collectors/source.hpp"
#include "daemon/capture/capture_service.hpp"
#include "daemon/capture/capture_sink.hpp"
#include "daemon/capture/perf_framing_statistics.hpp"
#include "daemon/capture/statistics_of.hpp"

namespace apcgate::collectors::perf {
struct Capabilities;
struct PerfOptions;
class ProcReader;
}  // namespace apcgate::collectors::perf

namespace apcgate::daemon {

class PerfFramingCapture {
  public:
    // Opens the events and sends everything up to the enabled events (see above). The
    // collectors must hold a perf source (its probed capabilities decide what opens, its
    // options say where /proc and /sys are).
    static Result<std::unique_ptr<PerfFramingCapture>> start(CollectorSet& collectors,
                                                             const model::CaptureSettings& settings,
                                                             const model::CaptureCounters& counters,
                                                             CaptureSink& sink);
    ~PerfFramingCapture();

    // Forwards what the rings hold and one block of /proc counters; flushes the sink.
    void poll();
    // Disables the events, forwards the rest, finishes the sink. Idempotent.
    void stop();

    [[nodiscard]] const PerfFramingStatistics& totals() const { return totals_; }
    // The framing's own statistics and those of the sources it polls (the /proc counters,
    // annotations), for the capture-end log and the capture's statistics file.
    [[nodiscard]] std::vector<StatisticsOf> statistics() const;
    [[nodiscard]] std::int64_t base_monotonic_raw() const { return base_; }

  private:
    // What the events are opened on: threads (-1: every one, on each CPU), and the processes
    // whose threads and maps are sent at the start.
    struct Targets {
        std::vector<pid_t> tids;
        std::vector<std::int32_t> named;
        bool system_wide = false;
        bool from_exec = false;  // a command held at its gate (record -- CMD)
    };

    PerfFramingCapture(CaptureSink& sink) : sink_(sink) {}
    static Targets capture_targets(const collectors::perf::PerfOptions& options,
                                   const collectors::perf::ProcReader& proc);
    // `release`: how the tracepoint events are closed at the end (tracepoint_release.hpp).
    Status open_events(const collectors::perf::Capabilities& caps,
                       const collectors::CaptureContext& ctx, const Targets& targets,
                       collectors::perf::TracepointRelease release);
    // The start's frames, in the order the header above lists them.
    void send_summary(const collectors::perf::Capabilities& caps, bool system_wide);
    void send_attrs(const collectors::perf::Capabilities& caps);  // FORMAT and PEA
    void send_threads(const collectors::perf::ProcReader& proc,
                      const std::vector<std::int32_t>& named);  // COMM
    void send_kernel_build_id(const std::filesystem::path& sys_root);
    void send_keys();
    void send_online_cpus();
    void send_maps(const std::filesystem::path& proc_root, const std::vector<std::int32_t>& named);
    void send_kallsyms(const std::filesystem::path& proc_root);
    // /proc and /sys counters and annotations: the sources this framing polls itself.
    void start_counter_sources(CollectorSet& collectors, const collectors::CaptureContext& ctx);
    void frame(std::span<const std::uint8_t> body);
    void forward_ring(collectors::perf::ForwardedEvents::Cpu& cpu);
    void forward_source_events(std::vector<model::Event>& events);
    [[nodiscard]] std::int64_t now() const;

    CaptureSink& sink_;
    std::unique_ptr<collectors::perf::ForwardedEvents> events_;
    std::vector<collectors::Source*> sources_;
    std::int64_t base_ = 0;
    std::vector<std::uint8_t> drained_, body_;
    std::vector<model::Event> source_events_;
    PerfFramingStatistics totals_;
    bool started_ = false;
    bool stopped_ = false;
};

}  // namespace apcgate::daemon
