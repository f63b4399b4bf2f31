#include "collectors/xray/call_rate_counters.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace apcgate::collectors::xray {

std::string CallRateCounters::counter_name(const ThreadInfo& t) {
    // Built piece by piece: GCC 12 misreads "a" + b + c here as overlapping copies (-Wrestrict).
    std::string name = "XRay_calls_";
    const auto add = [&name](std::int64_t v) {
        if (v < 0) name += 'm';
        name += std::to_string(v < 0 ? 0 - static_cast<std::uint64_t>(v)
                                     : static_cast<std::uint64_t>(v));
    };
    if (t.pid_known) {
        add(t.pid);
        name += '_';
    }
    add(t.tid);
    return name;
}

void CallRateCounters::declare(const LogIndex& index, model::CounterCatalog& catalog) {
    const std::size_t n = std::min(index.threads.size(), kMaxThreadCounters);
    for (std::size_t i = 0; i < n; ++i) {
        const ThreadInfo& t = index.threads[i];
        model::CounterSpec s;
        s.counter = counter_name(t);
        s.category = "XRay";
        s.title = "XRay calls";
        s.name = t.pid_known ? "pid " + std::to_string(t.pid) + " tid " + std::to_string(t.tid)
                             : "tid " + std::to_string(t.tid);
        s.description = "Instrumented function calls per second on this thread";
        s.cls = model::CounterClass::Incident;
        s.display = model::Display::Hertz;
        s.units = "calls";
        catalog.add(std::move(s));  // false when another log of the run declared it: shared
    }
}

void CallRateCounters::start(const LogIndex& index, const model::CaptureCounters& counters) {
    const std::size_t n = std::min(index.threads.size(), kMaxThreadCounters);
    keys_.assign(n, std::nullopt);
    for (std::size_t i = 0; i < n; ++i) keys_[i] = counters.key(counter_name(index.threads[i]));
    counts_.assign(n, 0);
    bucket_end_.reset();
}

void CallRateCounters::flush(model::Nanos at, std::vector<model::Event>& out) {
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        if (counts_[i] == 0) continue;
        if (keys_[i]) out.push_back(model::CounterSample{at, 0, *keys_[i], counts_[i], -1});
        counts_[i] = 0;
    }
}

void CallRateCounters::next_bucket(model::Nanos ts, std::vector<model::Event>& out) {
    if (!bucket_end_) {
        // Buckets are aligned to whole milliseconds of the capture's timeline.
        bucket_end_ = (ts >= 0 ? ts / kBucket + 1 : ts / kBucket) * kBucket;
        return;
    }
    if (ts < *bucket_end_) return;
    flush(*bucket_end_, out);
    bucket_end_ = *bucket_end_ + ((ts - *bucket_end_) / kBucket + 1) * kBucket;
}

void CallRateCounters::finish(std::vector<model::Event>& out) {
    if (bucket_end_) flush(*bucket_end_, out);
}

}  // namespace apcgate::collectors::xray
