// Nested spans (function calls, duration events) as Streamline annotations, the way the XRay and
// FXT ingesters show them: each thread gets an annotation group named after it, each call depth
// a channel in that group; a span opens with a non-empty UTF-8 string annotation on its depth's
// channel and closes with an empty one on the same channel. Group and channel ids are unique in
// the capture, and each is named (Create Group / Create Channel) once, before its first use.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ingest {

class SpanChannels {
  public:
    // The deepest nesting shown, for every ingester: far beyond what real programs reach (a
    // recursion of a few hundred levels is common), it only bounds what a hostile input can
    // make us keep (a channel per thread and depth). The ingesters count what lies deeper and
    // report it as one problem with its count: nothing is left out silently.
    static constexpr int kMaxDepth = 4096;

    // Names the group of `tid` (used when the thread's group is first created; a later call
    // renames it with a fresh Create Group message).
    void name_thread(model::Nanos ts, std::int32_t tid, std::string name,
                     std::vector<model::Event>& out);

    // Opens a span at `depth` (0 = outermost) on `tid`: `text` must be non-empty.
    void open(model::Nanos ts, std::int32_t core, std::int32_t tid, int depth, std::string text,
              std::vector<model::Event>& out);
    // Closes the span at `depth` on `tid`.
    void close(model::Nanos ts, std::int32_t core, std::int32_t tid, int depth,
               std::vector<model::Event>& out);
    // A one-off annotation (e.g. an instant or custom event) on the thread's own channel 0 row.
    void note(model::Nanos ts, std::int32_t core, std::int32_t tid, std::string text,
              std::vector<model::Event>& out);

    // The channel of `depth` on `tid` (-1: the "events" row of notes), named (with its group)
    // into `out` when first used. For a converter that writes the annotations itself, in a
    // SpanRun: it keeps the id and asks again only for a channel it has not met.
    std::int32_t channel(model::Nanos ts, std::int32_t tid, int depth,
                         std::vector<model::Event>& out);

    [[nodiscard]] std::size_t channels() const { return channels_.size(); }

  private:
    std::int32_t group_of(model::Nanos ts, std::int32_t tid, std::vector<model::Event>& out);

    std::map<std::int32_t, std::int32_t> groups_;                    // tid -> group
    std::map<std::int32_t, std::string> names_;                      // tid -> thread name
    std::map<std::pair<std::int32_t, int>, std::int32_t> channels_;  // (tid, depth) -> channel
    std::int32_t next_group_ = 1;                                    // 0 is the default group
    std::int32_t next_channel_ = 1;                                  // 0 is the default channel
};

}  // namespace apcgate::collectors::ingest
