// The first pass's result: where each thread's data lies in the input. A block is one FDR
// buffer or one run of a basic-mode log's records by the same thread. Threads are keyed by
// (pid, tid); each lists its blocks in the order they are to be read. The index holds one small
// entry per block and no records, so memory follows the buffer count, not the input size.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::xray {

// Threads beyond this many are reported and skipped: per-thread state must stay bounded.
inline constexpr std::size_t kMaxThreads = 16384;

struct BlockRef {
    std::uint64_t offset = 0;     // first record byte in the input
    std::uint64_t size = 0;       // bytes of records
    std::uint64_t first_tsc = 0;  // the block's first absolute TSC (its time base)
    std::uint32_t thread = 0;     // index in LogIndex::threads
    bool cut = false;             // FDR: the file ends inside this buffer (the log is cut short)
};

struct ThreadInfo {
    std::int32_t tid = 0;
    std::int32_t pid = 0;
    bool pid_known = false;
    std::vector<std::uint32_t> blocks;  // indexes in LogIndex::blocks, in reading order
};

// An FDR buffer's WallClockTime (the writer's CLOCK_MONOTONIC when it set the buffer up, to the
// microsecond) beside the buffer's time base: what relates the log's TSC to that clock.
struct WallStamp {
    std::uint64_t tsc = 0;
    std::int64_t monotonic_ns = 0;
};

struct LogIndex {
    // The first buffers' stamps are plenty to relate the clocks; more are not kept, but for
    // the last kLateWallStamps in file order (the run's end, where the TSC rate is measured).
    static constexpr std::size_t kMaxWallStamps = 4096;
    static constexpr std::size_t kLateWallStamps = 64;

    std::vector<BlockRef> blocks;
    std::vector<ThreadInfo> threads;
    std::optional<std::uint64_t> min_tsc;  // earliest block time base over all threads
    std::uint32_t max_cpu = 0;             // highest CPU any record names
    std::vector<WallStamp> wall_stamps;    // FDR: of the first kMaxWallStamps buffers
    std::vector<WallStamp> late_stamps;    // FDR: of the last buffers after those (a ring)
    std::size_t late_next = 0;             // where the ring writes next

    // The thread for (pid, tid), created on first use; nullopt past kMaxThreads.
    std::optional<std::uint32_t> thread_for(std::int32_t pid, bool pid_known, std::int32_t tid);
    // Appends a block of `thread` and updates min_tsc.
    void add_block(const BlockRef& b);
    void add_wall_stamp(const WallStamp& s) {
        if (wall_stamps.size() < kMaxWallStamps) {
            wall_stamps.push_back(s);
        } else if (late_stamps.size() < kLateWallStamps) {
            late_stamps.push_back(s);
        } else {
            late_stamps[late_next] = s;
            late_next = (late_next + 1) % kLateWallStamps;
        }
    }
    // FDR: orders each thread's buffers by time base (the file holds them in queue order).
    void sort_blocks_by_time();

  private:
    std::map<std::pair<std::int64_t, std::int32_t>, std::uint32_t> by_id_;
};

}  // namespace apcgate::collectors::xray
