// The data streams of the traces in one timestamp order: the messages of every source.ctf.fs
// output port (one data stream each), merged the way libbabeltrace2's filter.utils.muxer (2.0)
// merges them, so the capture sees what `babeltrace2 TRACE` sees, in the same order. It replaces
// that filter in the graph (trace_graph.hpp) because the filter costs 6 % of the decoding on an
// LTTng trace (docs/performance.md): it copies every message into a GQueue node and works out
// every stream's next timestamp again for each message it hands on. Here each upstream batch is
// read in place and a stream's next timestamp is worked out once.
//
// The order, as the muxer's:
//   - each message's time is its default clock snapshot in ns from the clock's origin; a message
//     without one (a stream beginning or end whose time is unknown, a packet boundary whose
//     stream class has none, every message when the streams have no clock) takes the time of
//     the last message handed on;
//   - the earliest goes first; between streams at the same time, the trace with a UUID before
//     one without and then by UUID bytes, the trace with a name before one without and then by
//     name, then by stream class id, then by stream id; when those are equal too (streams of
//     two traces of one name and no UUID), the stream of the earlier port. There the muxer
//     goes on comparing the two messages (their types, then an event's class id, name, log
//     level and EMF URI) before its own port order, which changes as streams end;
//   - a stream whose next message is earlier than the last message handed on stops the merge
//     (the muxer's error "Youngest upstream message iterator wrapper's timestamp is less than
//     muxer's message iterator's last returned timestamp");
//   - the clock classes must agree with the first stream's (checked on each stream beginning):
//     all with the Unix epoch as origin, or all of one UUID and another origin, or all without a
//     UUID and another origin, or no stream with a clock.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "collectors/ctf/bt_ref.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

class StreamMerge {
  public:
    enum class Pull { Messages, Again, End, Failed };

    StreamMerge() = default;
    ~StreamMerge();
    StreamMerge(const StreamMerge&) = delete;
    StreamMerge& operator=(const StreamMerge&) = delete;

    // Takes over the reference to `it`; the streams of earlier ports are added first.
    void add_upstream(bt_message_iterator* it) { active_.push_back({MessageIteratorRef(it)}); }

    // Up to `capacity` messages in order into `out`, with their references (the caller puts
    // them). Messages when `count` > 0, whatever else happened: an end or a failure met after
    // some messages is returned by the next call. Failed either with libbabeltrace2's error on
    // the current thread (an upstream iterator failed) or with failure() set (the merge itself
    // refused the streams); the merge is unusable afterwards.
    Pull next(const bt_message** out, std::uint64_t capacity, std::uint64_t& count);
    // Puts every reference it holds (messages not handed on, the iterators): the graph's
    // components are finalised after this.
    void clear();

    // What the merge refused, when next() said Failed without libbabeltrace2's error.
    [[nodiscard]] const std::optional<Error>& failure() const { return failure_; }

  private:
    struct Upstream {
        MessageIteratorRef it;
        bt_message_array_const messages = nullptr;  // the iterator's last batch, owned from pos
        std::uint64_t count = 0;
        std::uint64_t pos = 0;
        std::int64_t ts = 0;  // of messages[pos], when timed
        bool timed = false;
    };
    enum class Expect { Any, Absolute, Uuid, NoUuid, NoClock };

    // Reads the next batch of every upstream whose batch is used up, drops the ended ones.
    Pull refill();
    // Reads the next batch of active_[i] when its own is used up: Messages, or End when it
    // ended (and was dropped), Again or Failed.
    // Its first message is timed when `time`.
    Pull refill_at(std::size_t i, bool time);
    // Works out the time of `u`'s next message (and checks a new stream's clock class).
    bool time_head(Upstream& u);
    bool check_clock_class(const bt_clock_class* cc);
    // Whether `a`'s stream goes before `b`'s at the same time (by trace and ids alone).
    [[nodiscard]] static bool before(const Upstream& a, const Upstream& b);

    // In port order: an ended one is erased in place, so the earlier port is the lower index.
    std::vector<Upstream> active_;
    bool primed_ = false;    // every upstream has been read once
    std::size_t taken_ = 0;  // the index in active_ of the upstream last taken from
    std::int64_t last_ns_ = INT64_MIN;
    Expect expect_ = Expect::Any;
    std::array<std::uint8_t, 16> uuid_{};
    std::optional<Error> failure_;
    // A failure (or the end) met after messages were taken, for the next call.
    Pull held_ = Pull::Messages;
    ErrorRef held_error_;
};

}  // namespace apcgate::collectors::ctf
