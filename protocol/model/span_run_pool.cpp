#include "protocol/model/span_run_pool.hpp"

#include <utility>
#include <vector>

namespace apcgate::model::span_run_pool {

namespace {

struct Pool {
    std::vector<SpanRun> runs;
    std::size_t bytes = 0;
    bool takes = false;  // this thread makes runs here, so it may keep them
};

thread_local Pool pool;

std::size_t bytes_of(const SpanRun& run) {
    return run.items.capacity() * sizeof(SpanItem) + run.texts.capacity();
}

}  // namespace

SpanRun take(std::size_t items, std::size_t text_bytes) {
    pool.takes = true;
    SpanRun run;
    if (!pool.runs.empty()) {
        run = std::move(pool.runs.back());
        pool.runs.pop_back();
        pool.bytes -= bytes_of(run);
    }
    run.items.reserve(items);
    run.texts.reserve(text_bytes);
    return run;
}

void give(SpanRun&& run) {
    SpanRun spent;
    std::swap(spent, run);  // `run` is left a new, empty run
    const std::size_t bytes = bytes_of(spent);
    if (!pool.takes || bytes == 0 || bytes > kMaxRunBytes || pool.bytes + bytes > kMaxBytes) return;
    spent.clear();
    pool.runs.push_back(std::move(spent));
    pool.bytes += bytes;
}

std::size_t kept_bytes() {
    return pool.bytes;
}

}  // namespace apcgate::model::span_run_pool
