// Puts the mapped events in timestamp order before they leave the source. The agent takes a
// record's timestamp before it reserves the record's block, so blocks are in commit order:
// records from different cores can be slightly out of timestamp order, by at most the number of
// cores writing at once. Events are held back until the `lookback` most recent records are all
// later than them (that horizon is the watermark the source promises); an event older than an
// earlier promise (a store that breaks the agent's rule) is moved up to the promise, and counted
// (moved_up(): the source reports it as barman_events_moved_up).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::barman {

class EventOrder {
  public:
    explicit EventOrder(std::size_t lookback) : lookback_(lookback == 0 ? 1 : lookback) {}

    // Where the mapper appends the events of the records it maps (in store order).
    std::vector<model::Event>& incoming() { return pending_; }
    // Where it appends the counter values and PC samples: released as SampleRun events, one
    // per stretch of samples that no other event interrupts.
    std::vector<model::Sample>& incoming_samples() { return samples_; }
    // Closes what the mapper appended since the last call to this or add_record() as a part of
    // the record at `ts`: a record's events and samples keep the order the mapper gave them only
    // if it calls this each time it turns from one to the other.
    // (Inline, as add_record(): both run for every record.)
    void cut(model::Nanos ts) {
        // A part holds one kind: the mapper cuts each time it turns from one to the other (both
        // at once only when it did not, and then samples go first).
        if (samples_.size() > covered_samples_) {
            runs_.push_back({ts, seq_++, static_cast<std::uint32_t>(covered_samples_),
                             static_cast<std::uint32_t>(samples_.size() - covered_samples_), true});
            covered_samples_ = samples_.size();
        }
        if (pending_.size() > covered_) {
            runs_.push_back({ts, seq_++, static_cast<std::uint32_t>(covered_),
                             static_cast<std::uint32_t>(pending_.size() - covered_), false});
            covered_ = pending_.size();
        }
    }
    // The timeline timestamp of each record, in store order: every event and sample appended
    // since the previous call (to this or add_loose_events()) is the record's and has this time
    // (the mapper gives all of a record's events its time), so events are ordered a record at a
    // time.
    void add_record(model::Nanos ts) {
        cut(ts);
        if (recent_.size() < lookback_) {
            recent_.push_back(ts);
        } else {
            recent_[recent_next_] = ts;
            recent_next_ = recent_next_ + 1 == lookback_ ? 0 : recent_next_ + 1;
        }
    }
    // Events appended outside any record (the header's names): each is ordered by its own time.
    void add_loose_events();
    // Moves the events up to the horizon (all of them when `everything`) to `out`, sorted by
    // timestamp (stable: a record's events keep their order); returns the watermark: no later
    // release holds an earlier event.
    model::Nanos release(std::vector<model::Event>& out, bool everything);

    // Events and samples held.
    [[nodiscard]] std::size_t pending() const { return pending_.size() + samples_.size(); }
    // Events moved up (a SampleRun's samples each count as the event it stands for).
    [[nodiscard]] std::uint64_t moved_up() const { return moved_up_; }

  private:
    // pending_[first, first + count) (samples_ when `samples`), all at `ts`; compared by
    // (ts, seq), seq counting parts in store order, which keeps the store order of equal times.
    struct Run {
        model::Nanos ts;
        std::uint64_t seq;
        std::uint32_t first;
        std::uint32_t count;
        bool samples;
        bool operator<(const Run& o) const { return ts < o.ts || (ts == o.ts && seq < o.seq); }
    };
    // Puts runs_ in time order; false when it already was.
    bool sort_runs();
    // Sets an event that is earlier than the watermark to it.
    void move_up(model::Event& e) const;
    // Keeps the events and samples of the runs after the first `released_runs` (released: moved
    // out) as the new pending_ and samples_, in time order.
    void keep_held_back(std::size_t released_runs, bool sorted);

    std::size_t lookback_;
    // The times of the `lookback_` most recent records, as a ring (a deque's push and pop per
    // record cost more than the record's ordering).
    std::vector<model::Nanos> recent_;
    std::size_t recent_next_ = 0;
    std::vector<model::Event> pending_;
    std::vector<model::Sample> samples_;
    std::vector<Run> runs_;  // covering pending_[0, covered_), in store order until sorted
    std::size_t covered_ = 0;
    std::size_t covered_samples_ = 0;  // samples_[0, covered_samples_) likewise
    std::uint64_t seq_ = 0;
    std::vector<model::Event> scratch_;
    std::vector<model::Sample> sample_scratch_;
    model::Nanos watermark_ = 0;
    std::uint64_t moved_up_ = 0;
};

}  // namespace apcgate::collectors::barman
