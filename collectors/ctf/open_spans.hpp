// The string annotations a capture has left open, per channel, as the polling thread hands the
// worker's events out: the worker ends them itself at the trace's end, but when it dies (or the
// capture stops) first, the source ends them at the last time it reached, so no span runs on.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

class OpenSpans {
  public:
    // Notes the string annotations of `events` (a non-empty text opens a span, an empty one
    // ends it).
    void track(const std::vector<model::Event>& events) {
        for (const auto& e : events) {
            const auto* a = std::get_if<model::Annotation>(&e);
            const auto* s = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
            if (s == nullptr) continue;
            if (s->text.empty())
                open_.erase(s->channel);
            else
                open_[s->channel] = Open{a->tid, a->core};
        }
    }
    // Ends every open span at `ts`.
    void close_all(model::Nanos ts, std::vector<model::Event>& out) {
        for (const auto& [channel, o] : open_)
            out.push_back(model::Annotation{ts, o.core, o.tid,
                                            model::StringAnnotation{channel, std::nullopt, {}}});
        open_.clear();
    }
    void clear() { open_.clear(); }

  private:
    struct Open {
        std::int32_t tid = 0;
        std::int32_t core = 0;
    };
    std::map<std::int32_t, Open> open_;  // ordered: the same end events every run
};

}  // namespace apcgate::collectors::ctf
