// Turns normalized perf events (trace_events.hpp), given in time order, into model events,
// keeping what it needs to name things current:
//   - threads (tid -> pid, comm): a ThreadName whenever a thread is first seen or renamed
//     (COMM records, sched_switch's next_comm), a ProcComm for each new thread, and an
//     ActivityLink (exec cookie, pid, tid) before a thread's first Activity Switch;
//   - processes (pid -> image, address space): forks copy the parent's, exec clears it and the
//     first mapping after exec names the new image; MMAP2 records add mappings;
//   - cookies: each image path gets one, named by a CookieName the first time it is used;
//   - each CPU's running share per counter period (running_share.hpp), the activity counter's
//     value.
// Threads and processes the capture did not see start are looked up once in /proc. Tables are
// bounded; what does not fit is counted and still mapped without its name.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "collectors/perf/image_map.hpp"
#include "collectors/perf/perf_statistics.hpp"
#include "collectors/perf/proc_reader.hpp"
#include "collectors/perf/running_share.hpp"
#include "collectors/perf/trace_events.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

class EventMapper {
  public:
    static constexpr std::size_t kMaxThreads = 1u << 18;
    static constexpr std::size_t kMaxProcesses = 1u << 16;

    // `proc` (may be null) answers for threads and processes not seen before; `activity_key`
    // is the key of the activity counter (no Activity Switch without it).
    EventMapper(const ProcReader* proc, std::optional<model::CounterKey> activity_key)
        : proc_(proc), activity_key_(activity_key) {}

    // What /proc said at capture start.
    void seed_process(std::int32_t pid, std::string image, const std::vector<MapsEntry>& maps);
    void seed_thread(std::int32_t tid, std::int32_t pid, std::string comm);
    // Appends ProcComm + ThreadName (ts 0) for every seeded thread (follow mode: procfs names
    // every thread anyway, this makes the followed ones certain).
    void name_seeded(std::vector<model::Event>& out);

    // `ts` is the event's time on the capture's timeline.
    void map(const TraceEvent& e, model::Nanos ts, std::vector<model::Event>& out);

    [[nodiscard]] const PerfStatistics& stats() const { return stats_; }
    [[nodiscard]] std::size_t threads() const { return threads_.size(); }

  private:
    struct Thread {
        std::int32_t pid = 0;
        std::string comm;
        bool linked = false;
        // When `comm` was last set: a record that arrives late (older than that) carries an
        // older name and must not undo a rename (a switch's next_comm from before a prctl).
        model::Nanos named_at = 0;
    };
    struct Process {
        std::string image;
        bool awaiting_image = false;  // exec seen, its image not mapped yet
        AddressSpace space;
    };

    Thread* thread(std::int32_t tid, std::int32_t pid_hint, const std::string& comm,
                   model::Nanos ts, std::int32_t core, std::vector<model::Event>& out);
    Process* process(std::int32_t pid);
    std::int32_t exec_cookie(std::int32_t pid, model::Nanos ts, std::int32_t core,
                             std::vector<model::Event>& out);
    void link(std::int32_t tid, Thread& t, model::Nanos ts, std::int32_t core,
              std::vector<model::Event>& out);

    void on_switch(const SwitchEv& e, model::Nanos ts, std::vector<model::Event>& out);
    void on_fork(const ForkEv& e, model::Nanos ts, std::vector<model::Event>& out);
    void on_exit(const ExitEv& e, model::Nanos ts, std::vector<model::Event>& out);
    void on_comm(const CommEv& e, model::Nanos ts, std::vector<model::Event>& out);
    void on_mmap(const MmapEv& e, model::Nanos ts, std::vector<model::Event>& out);
    void on_sample(const SampleEv& e, model::Nanos ts, std::vector<model::Event>& out);

    const ProcReader* proc_;
    std::optional<model::CounterKey> activity_key_;
    CookieTable cookies_;
    RunningShare running_;
    std::unordered_map<std::int32_t, std::int32_t> shown_tid_;  // CPU -> tid its last switch drew
    std::unordered_map<std::int32_t, Thread> threads_;
    std::unordered_map<std::int32_t, std::unique_ptr<Process>> processes_;
    PerfStatistics stats_;  // the mapper's share of the collector's statistics
};

}  // namespace apcgate::collectors::perf
