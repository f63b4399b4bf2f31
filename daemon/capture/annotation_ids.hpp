// Annotation group and channel ids unique in a capture. Each source numbers its groups and
// channels itself (the XRay, FXT and CTF ingesters from 1, Barman as the target's agent did),
// and Streamline knows a channel by its id: two sources' "channel 1" in one capture would be one
// channel, named by whichever named it last, with both sources' annotations on it — and an XRay
// log and an LTTng trace of one program annotate the same threads. So the engine renumbers: the
// first source to use an id keeps it (a capture with one annotating source is unchanged, byte
// for byte), a later source's use of a taken id gets a free one, the same for all its uses.
// Id 0 is the default group or channel, everyone's.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::daemon {

class AnnotationIds {
  public:
    // Past `max_ids` ids in one space (a hostile dump naming millions of channels), every
    // further new id shares one overflow id: memory stays bounded.
    static constexpr std::size_t kMaxIds = 1 << 21;

    explicit AnnotationIds(std::size_t sources, std::size_t max_ids = kMaxIds)
        : groups_(sources, max_ids), channels_(sources, max_ids) {}

    // Rewrites the group and channel ids in the events `source` made (names, string
    // annotations, span runs) to the capture's.
    void remap(std::size_t source, std::vector<model::Event>& events);

  private:
    // One id space (groups, or channels).
    class Space {
      public:
        Space(std::size_t sources, std::size_t max_ids) : by_source_(sources), max_ids_(max_ids) {}
        [[gnu::always_inline]] std::int32_t capture_id(std::size_t source, std::int32_t id) {
            // Span runs ask for every item: small ids are looked up in a vector.
            const Translation& t = by_source_[source];
            if (id > 0 && static_cast<std::size_t>(id) < t.dense.size() && t.dense[id] != 0)
                return t.dense[id];
            return id == 0 ? 0 : assign(source, id);
        }
        // True while every id of `source` kept its number.
        [[nodiscard]] bool identity(std::size_t source) const {
            return by_source_[source].identity;
        }

      private:
        static constexpr std::int32_t kDense = 1 << 16;
        struct Translation {
            std::vector<std::int32_t> dense;  // source id -> capture id (0: none yet)
            std::unordered_map<std::int32_t, std::int32_t> sparse;
            bool identity = true;
        };
        std::int32_t assign(std::size_t source, std::int32_t id);
        [[nodiscard]] bool taken(std::int32_t capture_id) const;
        void mark_taken(std::int32_t capture_id);
        std::int32_t lowest_free();

        std::vector<Translation> by_source_;
        std::size_t max_ids_;
        std::vector<bool> taken_dense_;           // capture ids 1..kDense-1 in use
        std::unordered_set<std::int32_t> taken_;  // the others
        std::int32_t next_free_ = 1;
        std::size_t assigned_ = 0;      // translations made, all sources
        std::int32_t overflow_id_ = 0;  // the shared id past kMaxIds (0: none yet)
    };

    Space groups_;
    Space channels_;
};

}  // namespace apcgate::daemon
