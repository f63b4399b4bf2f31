#include "collectors/ctf/deferred_texts.hpp"

#include <algorithm>
#include <string_view>

namespace apcgate::collectors::ctf {

namespace {

// The body of a string annotation without a colour, the only kind a SpanRun holds.
model::StringAnnotation* plain_string(model::Event& e) {
    auto* a = std::get_if<model::Annotation>(&e);
    auto* s = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
    return s != nullptr && !s->color ? s : nullptr;
}

}  // namespace

void DeferredTexts::apply(std::vector<model::Event>& events) const {
    for (const Slice& s : slices_) {
        if (s.event >= events.size()) continue;
        auto* a = std::get_if<model::Annotation>(&events[s.event]);
        auto* text = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
        if (text != nullptr) text->text.assign(bytes_, s.offset, s.length);
    }
}

void DeferredTexts::apply_as_runs(std::vector<model::Event>& events,
                                  std::vector<model::Event>& scratch) const {
    // The worker writes the slices in event order, so they are walked along with the events;
    // in any other order (a hostile frame) they are applied first, the last for an event
    // winning as in apply().
    const bool in_order =
        std::adjacent_find(slices_.begin(), slices_.end(), [](const Slice& a, const Slice& b) {
            return b.event <= a.event;
        }) == slices_.end();
    if (!in_order) apply(events);
    std::size_t next = 0;  // the first slice not behind the event being read
    const auto sliced = [&](std::size_t event) -> const Slice* {
        if (!in_order) return nullptr;
        while (next < slices_.size() && slices_[next].event < event) ++next;
        return next < slices_.size() && slices_[next].event == event ? &slices_[next] : nullptr;
    };
    // The bytes of the texts of events [first, end), slices looked up from `from` on: a run's
    // texts reserved at once, not grown by doubling (each growth a fresh buffer of a few MiB to
    // fault in, and a copy of all before it: they were most of the reader thread's system time).
    const auto run_text_bytes = [&](std::size_t first, std::size_t end, std::size_t from) {
        std::size_t total = 0;
        for (std::size_t e = first; e < end; ++e) {
            while (in_order && from < slices_.size() && slices_[from].event < e) ++from;
            if (in_order && from < slices_.size() && slices_[from].event == e) {
                total += slices_[from].length;
            } else {
                const auto& a = std::get<model::Annotation>(events[e]);
                total += std::get<model::StringAnnotation>(a.body).text.size();
            }
        }
        return total;
    };
    const std::string_view bytes = bytes_;
    scratch.clear();
    for (std::size_t i = 0; i < events.size();) {
        std::size_t end = i;
        while (end < events.size() && plain_string(events[end]) != nullptr) ++end;
        if (end - i < 2) {
            // Not a run: the event as it is, with its text (a coloured string annotation has
            // one too).
            auto* a = std::get_if<model::Annotation>(&events[i]);
            auto* text = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
            if (const Slice* s = sliced(i); s != nullptr && text != nullptr)
                text->text.assign(bytes.substr(s->offset, s->length));
            scratch.push_back(std::move(events[i]));
            ++i;
            continue;
        }
        // A frame is at most 64 MiB (worker_frames.hpp), so its texts always fit one run's
        // 4 GiB.
        auto& run =
            std::get<model::SpanRun>(scratch.emplace_back(std::in_place_type<model::SpanRun>));
        run.items.reserve(end - i);
        run.texts.reserve(run_text_bytes(i, end, next));
        for (; i < end; ++i) {
            const auto& a = std::get<model::Annotation>(events[i]);
            const auto& body = std::get<model::StringAnnotation>(a.body);
            const Slice* s = sliced(i);
            run.add(
                a.ts, a.core, a.tid, body.channel,
                s != nullptr ? bytes.substr(s->offset, s->length) : std::string_view(body.text));
        }
    }
    events.swap(scratch);
    scratch.clear();
}

}  // namespace apcgate::collectors::ctf
