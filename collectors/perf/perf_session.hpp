// The perf events of one capture, opened per CPU: for each CPU a ring owner (the side-band
// dummy event) whose mmap'd ring every sampling event of that CPU writes into
// (PERF_EVENT_IOC_SET_OUTPUT), plus counter groups read with one read() each. System-wide, each
// event watches its CPU for every task (pid -1); following tasks, each is opened per followed
// thread and CPU with inherit set, so children and new threads are counted too. Every fd and
// mapping is owned here and released when the session is destroyed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/ring_buffer.hpp"
#include "collectors/perf/tracepoint_release.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

struct SessionPlan {
    std::vector<int> cpus;
    std::vector<pid_t> targets{-1};  // -1: every task (system-wide); else tids to follow
    bool kernel = true;
    bool enable_on_exec = false;
    bool context_switch = false;  // PERF_RECORD_SWITCH side-band
    std::optional<std::uint32_t> sched_switch_id;
    std::string sched_switch_filter;           // a tracepoint filter for it ("": every switch)
    std::optional<std::uint32_t> cpu_idle_id;  // CPU-wide even when following
    int sample_hz = 0;                         // cpu-clock sampling (0: none)
    bool callchain = true;
    struct Counter {
        model::CounterKey key = 0;
        std::uint32_t type = 0;
        std::uint64_t config = 0;
        std::string name;
        int group = 0;  // counters of one group are read together (0: software, 1..: PMUs)
    };
    std::vector<Counter> counters;
    struct Sampler {  // event-based sampling (a configured counter with a `count`)
        std::uint32_t type = 0;
        std::uint64_t config = 0;
        std::uint64_t period = 0;
        std::string name;
    };
    std::vector<Sampler> samplers;
    std::size_t ring_bytes = 1u << 20;
    // Scale counts by time enabled / time running (multiplexed hardware counters). Only right
    // for CPU-wide events: a per-task event bound to one CPU is "enabled but not running"
    // whenever its task runs elsewhere, which is not multiplexing.
    bool scale = true;
    // How the tracepoint events are closed at the end (a helper when the process ends next).
    TracepointRelease tracepoint_release = TracepointRelease::Threads;
};

// One counter's running total on one CPU (summed over followed tasks, scaled for multiplexing).
struct CounterTotal {
    int cpu = 0;
    model::CounterKey key = 0;
    double value = 0;
};

class PerfSession {
  public:
    struct Ring {
        int cpu = 0;
        int fd = -1;  // the owner's fd, to wait on
        PerfRing ring;
        std::string name;  // "perf ring cpu N", for errors
    };

    // Opens everything in the plan. Events that fail on some target/CPU are skipped with a
    // warning (a followed thread may exit meanwhile); no ring at all is an error.
    static Result<std::unique_ptr<PerfSession>> open(const SessionPlan& plan,
                                                     const EventOpener& opener,
                                                     LayoutTable& layouts,
                                                     RecordNormalizer& normalizer,
                                                     std::vector<std::string>& warnings);
    ~PerfSession();
    PerfSession(const PerfSession&) = delete;
    PerfSession& operator=(const PerfSession&) = delete;

    Status enable();
    void disable();
    std::vector<Ring>& rings() { return rings_; }
    // Appends the running total of every counter on every CPU.
    void read_counters(std::vector<CounterTotal>& out);
    [[nodiscard]] std::size_t fds() const { return fds_.size(); }

  private:
    struct Group {
        int cpu = 0;
        int leader = -1;                      // fd
        std::vector<model::CounterKey> keys;  // in member order
    };
    PerfSession() = default;
    int open_one(const EventOpener& opener, perf_event_attr attr, pid_t pid, int cpu, int group_fd,
                 const std::string& what, std::vector<std::string>& warnings);
    struct Opening;
    int open_writer(Opening& o, const perf_event_attr& attr, pid_t pid, EventRole role,
                    const std::string& what);
    void open_target(Opening& o, pid_t target);
    void open_counters(Opening& o, pid_t target);

    std::vector<PerfFd> fds_;
    std::map<int, std::uint64_t> tracepoint_of_;  // fd -> tracepoint id, for ~PerfSession
    std::vector<Ring> rings_;
    std::vector<Group> groups_;
    bool scale_ = true;
    TracepointRelease release_ = TracepointRelease::Threads;
    std::vector<std::uint64_t> read_buf_;
};

}  // namespace apcgate::collectors::perf
