#include "protocol/model/event.hpp"

namespace apcgate::model {

void expand_span_runs(std::vector<Event>& events) {
    std::vector<Event> out;
    out.reserve(events.size());
    for (auto& e : events) {
        auto* run = std::get_if<SpanRun>(&e);
        if (run == nullptr) {
            out.push_back(std::move(e));
            continue;
        }
        for (std::size_t k = run->first; k < run->items.size(); ++k) {
            const SpanItem& i = run->items[k];
            out.emplace_back(
                Annotation{i.ts, i.core, i.tid,
                           StringAnnotation{i.channel, std::nullopt, std::string(run->text(i))}});
        }
    }
    events = std::move(out);
}

Event single_event(const Sample& s) {
    if (s.key == kPcSampleKey)
        return Backtrace{s.ts, s.core, s.cookie, s.pid, s.pid, {StackFrame{s.cookie, s.value}}};
    return CounterSample{s.ts, s.core, s.key, s.value, s.pid};
}

void expand_sample_runs(std::vector<Event>& events) {
    std::vector<Event> out;
    out.reserve(events.size());
    for (auto& e : events) {
        auto* run = std::get_if<SampleRun>(&e);
        if (run == nullptr) {
            out.push_back(std::move(e));
            continue;
        }
        for (std::size_t k = run->first; k < run->samples.size(); ++k)
            out.push_back(single_event(run->samples[k]));
    }
    events = std::move(out);
}

}  // namespace apcgate::model
