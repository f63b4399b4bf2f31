// CPU time per thread and per process from the activity timeline: an Activity Switch (or a
// Scheduler Trace Sched Switch) on a core says which thread runs there from its time on and
// why the thread that ran before stopped (its wait state). A thread's running time is the sum
// of its intervals on every core; its wait time, by state, runs from the switch that took it off
// a core to the one that puts it back (or the capture's end). Activity 0 (idle) and tid <= 0 run
// no thread. Names: Thread Name messages and Comm messages; pids: Comm, Backtrace and Activity
// Link messages. Memory: one entry per thread and per core.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "daemon/analysis/report.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::daemon::analysis {

class TimelineAccounting {
  public:
    // `key` distinguishes timelines that share cores (activity counters); -1 for Sched Switch.
    void switch_to(std::int64_t ts, std::int32_t key, std::int32_t core, std::int32_t tid,
                   model::WaitState wait);
    void thread_exit(std::int64_t ts, std::int32_t tid);
    void name_thread(std::int32_t tid, const std::string& name, bool from_thread_name);
    void process_of(std::int32_t tid, std::int32_t pid);
    void process_image(std::int32_t pid, const std::string& image);
    void sample(std::int32_t pid, std::int32_t tid);
    // Ends every interval still open at `end_ts`; call once, at the end.
    void finish(std::int64_t end_ts);

    [[nodiscard]] bool saw_switches() const { return switches_ > 0; }
    void fill(Report& r) const;

  private:
    struct Thread {
        std::int32_t pid = -1;
        std::string name;
        bool named_by_thread_name = false;
        std::int64_t cpu_ns = 0;
        std::map<std::int32_t, std::int64_t> by_core;
        std::array<std::int64_t, 3> wait_ns{};
        std::optional<std::pair<model::WaitState, std::int64_t>> waiting;  // since
        std::uint64_t samples = 0;
    };
    struct Running {
        std::int32_t tid = 0;  // <= 0: none
        std::int64_t since = 0;
    };
    Thread& thread(std::int32_t tid) { return threads_[tid]; }

    std::unordered_map<std::int32_t, Thread> threads_;
    std::map<std::pair<std::int32_t, std::int32_t>, Running> cores_;  // (key, core)
    std::unordered_map<std::int32_t, std::string> images_;            // pid -> executable
    std::uint64_t switches_ = 0;
};

}  // namespace apcgate::daemon::analysis
