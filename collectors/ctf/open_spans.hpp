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
    // Notes the string annotations of `events`, single or in span runs (a non-empty text opens
    // a span, an empty one ends it).
    void track(const std::vector<model::Event>& events) {
        for (const auto& e : events) {
            if (const auto* run = std::get_if<model::SpanRun>(&e)) {
                for (std::size_t i = run->first; i < run->items.size(); ++i) {
                    const model::SpanItem& item = run->items[i];
                    note(item.channel, item.text_size != 0, Open{item.tid, item.core, true});
                }
                continue;
            }
            const auto* a = std::get_if<model::Annotation>(&e);
            const auto* s = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
            if (s != nullptr) note(s->channel, !s->text.empty(), Open{a->tid, a->core, true});
        }
    }
    // Ends every open span at `ts`, in channel order (the same end events every run).
    void close_all(model::Nanos ts, std::vector<model::Event>& out) {
        const auto end = [&](std::int32_t channel, const Open& o) {
            out.push_back(model::Annotation{ts, o.core, o.tid,
                                            model::StringAnnotation{channel, std::nullopt, {}}});
        };
        auto other = other_.begin();
        for (; other != other_.end() && other->first < 0; ++other) end(other->first, other->second);
        for (std::size_t c = 0; c < small_.size(); ++c)
            if (small_[c].open) end(static_cast<std::int32_t>(c), small_[c]);
        for (; other != other_.end(); ++other) end(other->first, other->second);
        clear();
    }
    void clear() {
        small_.clear();
        other_.clear();
    }

  private:
    struct Open {
        std::int32_t tid = 0;
        std::int32_t core = 0;
        bool open = false;
    };
    // The worker numbers channels from 1 up (at most about kMaxChannels): those are looked up
    // in a vector, as every annotation asks; any other id (a hostile frame's) in the map.
    static constexpr std::int32_t kSmallChannels = 1 << 17;

    void note(std::int32_t channel, bool opens, const Open& o) {
        if (channel >= 0 && channel < kSmallChannels) {
            const auto c = static_cast<std::size_t>(channel);
            if (c >= small_.size()) small_.resize(c + 1);
            small_[c] = opens ? o : Open{};
        } else if (opens) {
            other_[channel] = o;
        } else {
            other_.erase(channel);
        }
    }

    std::vector<Open> small_;             // by channel id below kSmallChannels
    std::map<std::int32_t, Open> other_;  // the others, ordered
};

}  // namespace apcgate::collectors::ctf
