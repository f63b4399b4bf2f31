// The one reader thread of a capture. It sleeps in epoll on the rings' fds (the kernel wakes it
// when a ring is a quarter full) and on a stop eventfd, with a timeout for the next counter read
// or the latest drain; no busy loop (a ring whose followed task exited reports HUP at every
// wait, so it leaves the wait set; later drains still read it). Each drain copies every ring
// out, tokenizes, parses and normalizes the records, reads the counters, sorts everything by
// time across CPUs and maps what is older than (now - margin) into model events — records reach
// a ring a little after their timestamp, so the newest are held back to the next drain. The
// engine's poll() takes the mapped events from a bounded queue; when the queue is full the rings
// are left alone and the kernel's LOST records tell how much that cost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/perf/event_batches.hpp"
#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/perf_session.hpp"
#include "collectors/perf/perf_statistics.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::perf {

using collectors::LogFn;
using collectors::LogLevel;

struct ReaderConfig {
    std::int64_t zero_monotonic_ns = 0;
    model::Nanos counter_period = 10'000'000;  // 0: counters only at the end
    model::Nanos drain_period = 50'000'000;
    model::Nanos margin = 10'000'000;  // how late a record may reach its ring
    std::optional<model::CounterKey> lost_key;
    std::optional<model::CounterKey> repaired_switches_key;
    // Mapped events waiting for poll() at most before the reader leaves the rings to fill: two
    // polls' worth (kMaxEventsPerPoll, every 10 ms). More waiting means the capture fell behind;
    // the rings, kernel memory, hold what comes meanwhile, and the kernel counts what it drops.
    std::size_t queue_cap = std::size_t{32} * 1024;
    // A ring is copied out this much at a time (whole records; a record is at most 64 KiB), and
    // a drain (but the last) takes at most one such chunk from each ring: what a drain decodes,
    // sorts and maps, and so what it can add to the queue at once, is bounded however far the
    // rings ran ahead (a stall, the wait for /proc), not by the rings' size.
    std::size_t chunk_bytes = std::size_t{256} * 1024;
    LogFn log;
};

// What /proc said at capture start. The caller reads it after the reader has started, so the
// rings are drained meanwhile; nothing is mapped before it arrives.
struct ProcSeed {
    struct Process {
        std::int32_t pid = 0;
        std::string image;
        std::vector<MapsEntry> maps;
    };
    struct Thread {
        std::int32_t tid = 0, pid = 0;
        std::string comm;
    };
    std::vector<Process> processes;
    std::vector<Thread> threads;
    bool name_threads = false;  // ProcComm + ThreadName (ts 0) for each seeded thread
};

class PerfReader {
  public:
    // Mapped events move to the queue poll() reads at least this often within a drain.
    static constexpr std::size_t kHandOverBatch = 4096;
    // Records read from the rings before /proc has been read, at most (about 1.4 MB).
    static constexpr std::size_t kUnseededRecords = 16384;

    PerfReader(PerfSession& session, const LayoutTable& layouts, RecordNormalizer& normalizer,
               EventMapper& mapper, ingest::IngestReport& report, ReaderConfig config);
    ~PerfReader();
    PerfReader(const PerfReader&) = delete;
    PerfReader& operator=(const PerfReader&) = delete;

    Status start();
    // Hands over what /proc said (once, from any thread).
    void seed(ProcSeed seed);
    void stop();  // wakes the thread and joins it
    // Moves up to `max` mapped events to `out`; returns the watermark (capture timeline).
    model::Nanos take(std::vector<model::Event>& out, std::size_t max);
    // After stop(): drains the rings to the end, reads the counters once more, hands out all.
    void finish(std::vector<model::Event>& out);

    [[nodiscard]] const PerfStatistics& stats() const { return stats_; }

  private:
    void run();
    void drain(std::int64_t now, bool final);
    struct RingDrain {
        std::uint64_t newest = 0;  // the newest time decoded (0: none)
        bool more = false;         // records were left in the ring: they are no older than that
    };
    // Decodes one chunk of `ring` (all of it when `whole`) into pending_.
    RingDrain drain_ring(PerfSession::Ring& ring, bool whole);
    // Moves produced_ to the queue poll() reads, raising the watermark when one is given.
    void hand_over(std::optional<model::Nanos> watermark);
    bool seed_arrived();
    void read_counters(std::int64_t now);
    void log(LogLevel level, const std::string& text) const {
        if (config_.log) config_.log(level, text);
    }

    PerfSession& session_;
    RecordParser parser_;
    RecordNormalizer& normalizer_;
    EventMapper& mapper_;
    ingest::IngestReport& report_;
    ReaderConfig config_;

    // Reader-side state (the thread's while it runs, the caller's after stop()).
    std::vector<std::uint8_t> buf_;
    std::vector<TraceEvent> pending_;
    std::vector<TraceEvent> held_;                              // pending_ for the next drain
    std::vector<std::pair<std::uint64_t, std::size_t>> order_;  // (time, index) into pending_
    std::vector<model::Event> produced_;
    std::vector<CounterTotal> totals_;
    std::map<std::pair<int, model::CounterKey>, std::int64_t> previous_;
    std::int64_t next_counters_ = 0;
    model::Nanos mapped_to_ = 0;  // capture-timeline time of the newest event handed out
    bool seeded_ = false;
    // Set when the last drain left records in a ring: the newest time read from the ring that
    // is furthest behind. The next drain follows at once and skips the rings read beyond it.
    std::optional<std::uint64_t> backlog_;
    std::vector<std::uint64_t> read_to_;  // per ring: the newest time decoded from it
    std::vector<bool> left_;              // per ring: records were left in it when last read
    PerfStatistics stats_;                // the reader's share of the collector's statistics

    // Shared with poll().
    std::mutex mutex_;
    EventBatches queue_;
    model::Nanos watermark_ = 0;
    std::optional<ProcSeed> seed_;
    std::atomic<std::size_t> queued_{0};

    PerfFd stop_fd_;
    PerfFd epoll_fd_;
    std::thread thread_;
};

}  // namespace apcgate::collectors::perf
