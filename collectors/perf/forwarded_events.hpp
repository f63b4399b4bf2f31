// The perf events of a capture whose ring-buffer records are forwarded as they are (the
// Perf-type framing, gatord 9.x's), opened and described the way gatord opens its own so that a
// Streamline that reads gatord's captures reads ours: per CPU
//  - a side-band dummy event that owns the CPU's ring (MMAP2, COMM with exec, FORK/EXIT);
//  - the sched_switch tracepoint as the leader of a group sampled at every switch, its RAW
//    payload and a READ of the whole group in each sample;
//  - the CPU-clock sampler (with call stacks when asked) as a member of that group;
//  - every perf-backed counter as a counting member of that group, so its value rides in the
//    READ group of every sample (gatord opens software counters in groups of their own, which
//    deliver no value system-wide; as members they do).
// Without the sched_switch tracepoint the CPU-clock sampler leads the group and the side-band
// event adds context-switch records. Following processes (gatord's application mode), each
// event is opened per followed thread and CPU with inherit, so their new threads and children
// are followed too; the tracepoint is left out (per task it sees switches out only) and the
// side-band's switch records say when the followed tasks run. Every event shares the owner's ring
// (PERF_EVENT_IOC_SET_OUTPUT) and samples CLOCK_MONOTONIC_RAW with PERF_SAMPLE_IDENTIFIER and
// sample_id_all, so any record names its event. Keys: captured.xml's for counters, and below
// INT_MAX for the internal events, as gatord numbers them.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/perf_session.hpp"
#include "collectors/perf/ring_buffer.hpp"
#include "collectors/perf/tracepoint_release.hpp"

namespace apcgate::collectors::perf {

inline constexpr std::int32_t kSwitchLeaderKey = 0x7fffffff;
inline constexpr std::int32_t kSidebandKey = 0x7ffffffe;
inline constexpr std::int32_t kClockSamplerKey = 0x7ffffffd;

struct KeyedAttr {
    std::int32_t key = 0;
    perf_event_attr attr{};
    std::string what;  // "sched:sched_switch", "cpu-clock sampling", a counter's name
};

// Whether the plan follows tasks (plan.targets is not {-1}).
bool follows(const SessionPlan& plan);

// The attrs a plan opens on every CPU (the same on each), in opening order: PEA messages.
std::vector<KeyedAttr> forwarded_attrs(const SessionPlan& plan);

class ForwardedEvents {
  public:
    struct Cpu {
        int cpu = 0;
        int owner_fd = -1;
        PerfRing ring;
        std::vector<std::pair<std::uint64_t, std::int32_t>> ids;  // perf event id -> key
    };

    // Opens the plan's events for plan.targets ({-1}: the whole system) on plan.cpus. A target
    // or CPU whose side-band or leader cannot open is left out with a warning; no CPU at all is
    // an error.
    static Result<std::unique_ptr<ForwardedEvents>> open(const SessionPlan& plan,
                                                         const EventOpener& opener,
                                                         std::vector<std::string>& warnings);
    // Closes the tracepoint events as plan.tracepoint_release says (tracepoint_release.hpp).
    ~ForwardedEvents();
    ForwardedEvents(const ForwardedEvents&) = delete;
    ForwardedEvents& operator=(const ForwardedEvents&) = delete;
    // Enables the events (unless they wait for the command's exec: plan.enable_on_exec).
    Status enable();
    void disable();
    [[nodiscard]] const std::vector<KeyedAttr>& attrs() const { return attrs_; }
    std::vector<Cpu>& cpus() { return cpus_; }

  private:
    ForwardedEvents() = default;
    std::vector<KeyedAttr> attrs_;
    std::vector<PerfFd> fds_;
    std::map<int, std::uint64_t> tracepoint_of_;  // fd -> tracepoint id, for the destructor
    TracepointRelease release_ = TracepointRelease::Threads;
    std::vector<int> enable_fds_;  // side-band owners and group leaders
    bool enable_on_exec_ = false;
    std::vector<Cpu> cpus_;
};

}  // namespace apcgate::collectors::perf
