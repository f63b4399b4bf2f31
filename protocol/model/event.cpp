#include "protocol/model/event.hpp"

namespace apcgate::model {

namespace {

// Replaces each `Run` in `events` by the single events `expand(run, out)` appends for its
// pending items; other events stay as they are, in order.
template <typename Run, typename Expand>
void expand_runs(std::vector<Event>& events, Expand expand) {
    std::vector<Event> out;
    out.reserve(events.size());
    for (auto& e : events) {
        if (auto* run = std::get_if<Run>(&e))
            expand(*run, out);
        else
            out.push_back(std::move(e));
    }
    events = std::move(out);
}

}  // namespace

void expand_span_runs(std::vector<Event>& events) {
    expand_runs<SpanRun>(events, [](const SpanRun& run, std::vector<Event>& out) {
        for (std::size_t k = run.first; k < run.items.size(); ++k) {
            const SpanItem& i = run.items[k];
            out.emplace_back(
                Annotation{i.ts, i.core, i.tid,
                           StringAnnotation{i.channel, std::nullopt, std::string(run.text(i))}});
        }
    });
}

Event single_event(const Sample& s) {
    if (s.key == kPcSampleKey)
        return Backtrace{s.ts, s.core, s.cookie, s.pid, s.pid, {StackFrame{s.cookie, s.value}}};
    return CounterSample{s.ts, s.core, s.key, s.value, s.pid};
}

void expand_sample_runs(std::vector<Event>& events) {
    expand_runs<SampleRun>(events, [](const SampleRun& run, std::vector<Event>& out) {
        for (std::size_t k = run.first; k < run.samples.size(); ++k)
            out.push_back(single_event(run.samples[k]));
    });
}

}  // namespace apcgate::model
