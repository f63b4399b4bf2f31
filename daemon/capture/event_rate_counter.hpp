// The capture's own counter, "events per second": how many events the capture holds in each
// millisecond of its timeline, whatever source made them (spans' starts and ends, notes, names,
// scheduling, samples). A capture of trace inputs gets it because the protocol's "Required
// Messages" rule asks every valid capture for at least one Activity, Counter or Block Counter
// message, and many traces (an FXT archive of spans only, an XRay log without calls) have
// none: this is a real value derived from what the inputs hold, the same for every format and
// mix of inputs, not a placeholder. Live captures have their /proc counters and do not get it.
//
// The engine shows it every event it encodes, in timeline order; each millisecond's count goes
// out (incident class, shown per second) at the end of that millisecond, when the first event
// after it arrives, so the samples keep the timeline's order. The last millisecond's count goes
// out at the end; a capture without any event says so with one sample of 0 at its start.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::daemon {

class EventRateCounter {
  public:
    static constexpr const char* kCounter = "apcgate_events";
    static constexpr model::Nanos kBucket = 1'000'000;

    static void declare(model::CounterCatalog& catalog);

    // Off when the capture's configuration does not enable the counter.
    explicit EventRateCounter(const model::CaptureCounters& counters)
        : key_(counters.key(kCounter)) {}

    // Counts `e` (an event about to be encoded; a SpanRun's pending annotations each at its
    // own time), appending to `out` the samples of the milliseconds that ended at or before
    // them: never later than `e`'s last time, never earlier than anything counted before.
    void observe(const model::Event& e, std::vector<model::Event>& out);
    // Counts the samples of `run` from index `from` on, each as the single event it stands for,
    // up to and including the first that ends a millisecond (whose sample goes to `out`);
    // returns how many it counted. A caller that encodes that many samples and then `out` puts
    // the rate samples where they would be among the run's single events.
    std::size_t observe(const model::SampleRun& run, std::size_t from,
                        std::vector<model::Event>& out);
    // The last millisecond's count (or the one 0 of an empty capture).
    void finish(std::vector<model::Event>& out);

  private:
    // Inline: it runs for every event a capture holds, and nearly every one falls in the
    // current millisecond.
    void count(model::Nanos ts, std::vector<model::Event>& out) {
        if (bucket_end_ && ts < *bucket_end_) {
            ++count_;
            return;
        }
        next_bucket(ts, out);
    }
    // The first event, or one past the current millisecond: sends the count and moves on.
    void next_bucket(model::Nanos ts, std::vector<model::Event>& out);

    std::optional<model::CounterKey> key_;
    std::optional<model::Nanos> bucket_end_;
    std::int64_t count_ = 0;
    bool sent_ = false;
};

}  // namespace apcgate::daemon
