#include "daemon/capture/event_rate_counter.hpp"

namespace apcgate::daemon {

void EventRateCounter::declare(model::CounterCatalog& catalog) {
    model::CounterSpec s;
    s.counter = kCounter;
    s.category = "Capture";
    s.title = "Events";
    s.name = "all sources";
    s.description =
        "Events this capture holds per second, from every input: span starts and ends, notes, "
        "names, scheduling and counter samples";
    s.cls = model::CounterClass::Incident;
    s.display = model::Display::Hertz;
    s.units = "events";
    catalog.add(std::move(s));
}

void EventRateCounter::observe(const model::Event& e, std::vector<model::Event>& out) {
    if (!key_) return;
    if (const auto* run = std::get_if<model::SpanRun>(&e)) {
        for (std::size_t i = run->first; i < run->items.size(); ++i) count(run->items[i].ts, out);
        return;
    }
    if (const auto* run = std::get_if<model::SampleRun>(&e)) {
        for (std::size_t i = run->first; i < run->samples.size(); ++i)
            count(run->samples[i].ts, out);
        return;
    }
    count(model::timestamp_of(e), out);
}

std::size_t EventRateCounter::observe(const model::SampleRun& run, std::size_t from,
                                      std::vector<model::Event>& out) {
    const std::size_t end = run.samples.size();
    if (!key_) return end - from;
    const std::size_t before = out.size();
    for (std::size_t i = from; i < end; ++i) {
        count(run.samples[i].ts, out);
        if (out.size() != before) return i - from + 1;
    }
    return end - from;
}

void EventRateCounter::next_bucket(model::Nanos ts, std::vector<model::Event>& out) {
    if (!bucket_end_) {
        // Milliseconds are aligned to the capture's timeline, as the XRay call counters are.
        bucket_end_ = (ts >= 0 ? ts / kBucket + 1 : ts / kBucket) * kBucket;
    } else if (ts >= *bucket_end_) {
        if (count_ > 0) {
            out.push_back(model::CounterSample{*bucket_end_, 0, *key_, count_, -1});
            sent_ = true;
        }
        count_ = 0;
        bucket_end_ = *bucket_end_ + ((ts - *bucket_end_) / kBucket + 1) * kBucket;
    }
    ++count_;
}

void EventRateCounter::finish(std::vector<model::Event>& out) {
    if (!key_) return;
    if (bucket_end_ && count_ > 0) {
        out.push_back(model::CounterSample{*bucket_end_, 0, *key_, count_, -1});
        sent_ = true;
    }
    if (!sent_) out.push_back(model::CounterSample{bucket_end_.value_or(0), 0, *key_, 0, -1});
    count_ = 0;
    sent_ = true;
}

}  // namespace apcgate::daemon
