#include "collectors/xray/log_index.hpp"

#include <algorithm>

namespace apcgate::collectors::xray {

std::optional<std::uint32_t> LogIndex::thread_for(std::int32_t pid, bool pid_known,
                                                  std::int32_t tid) {
    // An unknown pid gets a key no real pid has, so it never merges with a known one.
    const std::int64_t pid_key = pid_known ? pid : -(std::int64_t{1} << 40);
    const auto key = std::make_pair(pid_key, tid);
    if (auto it = by_id_.find(key); it != by_id_.end()) return it->second;
    if (threads.size() >= kMaxThreads) return std::nullopt;
    const auto index = static_cast<std::uint32_t>(threads.size());
    ThreadInfo t;
    t.tid = tid;
    t.pid = pid;
    t.pid_known = pid_known;
    threads.push_back(std::move(t));
    by_id_.emplace(key, index);
    return index;
}

void LogIndex::add_block(const BlockRef& b) {
    threads[b.thread].blocks.push_back(static_cast<std::uint32_t>(blocks.size()));
    blocks.push_back(b);
    min_tsc = min_tsc ? std::min(*min_tsc, b.first_tsc) : b.first_tsc;
}

void LogIndex::sort_blocks_by_time() {
    for (auto& t : threads) {
        // Stable: buffers with the same time base keep their file order.
        std::stable_sort(t.blocks.begin(), t.blocks.end(),
                         [this](std::uint32_t a, std::uint32_t b) {
                             return blocks[a].first_tsc < blocks[b].first_tsc;
                         });
    }
}

}  // namespace apcgate::collectors::xray
