// Calls per second per thread: one incident-class counter for each thread of the log (up to
// kMaxThreadCounters, the first threads to appear in the log), whose samples are the number of
// function entries the thread made in each 1 ms of the trace, sent at the end of that
// millisecond. Samples go out in time order with the spans: a millisecond's counts are sent
// when the first event after it arrives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectors/source.hpp"
#include "collectors/xray/log_index.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::xray {

class CallRateCounters {
  public:
    static constexpr model::Nanos kBucket = 1'000'000;
    static constexpr std::size_t kMaxThreadCounters = 256;

    // The counter name of a thread ("XRay_calls_<pid>_<tid>", or "XRay_calls_<tid>" without a
    // pid): the same thread in several logs of one run shares its counter.
    static std::string counter_name(const ThreadInfo& t);
    static void declare(const LogIndex& index, model::CounterCatalog& catalog);

    // Looks up each thread's key for this capture (threads without a counter get none).
    void start(const LogIndex& index, const model::CaptureCounters& counters);
    // Sends the counts of the milliseconds that ended before `ts` (inline: mostly none).
    void advance(model::Nanos ts, std::vector<model::Event>& out) {
        if (bucket_end_ && ts < *bucket_end_) return;
        next_bucket(ts, out);
    }
    void count_call(std::uint32_t thread) {
        if (thread < counts_.size()) ++counts_[thread];
    }
    // Sends what is left, at the end of the last millisecond.
    void finish(std::vector<model::Event>& out);

  private:
    void flush(model::Nanos at, std::vector<model::Event>& out);
    void next_bucket(model::Nanos ts, std::vector<model::Event>& out);

    std::vector<std::optional<model::CounterKey>> keys_;  // by thread index
    std::vector<std::uint32_t> counts_;
    std::optional<model::Nanos> bucket_end_;
};

}  // namespace apcgate::collectors::xray
