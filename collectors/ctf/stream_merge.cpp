#include "collectors/ctf/stream_merge.hpp"

#include <cstring>
#include <string>

namespace apcgate::collectors::ctf {

namespace {

// The data stream a message belongs to; none for an iterator inactivity message.
const bt_stream* stream_of(const bt_message* m) {
    switch (bt_message_get_type(m)) {
        case BT_MESSAGE_TYPE_EVENT:
            return bt_event_borrow_stream_const(bt_message_event_borrow_event_const(m));
        case BT_MESSAGE_TYPE_PACKET_BEGINNING:
            return bt_packet_borrow_stream_const(
                bt_message_packet_beginning_borrow_packet_const(m));
        case BT_MESSAGE_TYPE_PACKET_END:
            return bt_packet_borrow_stream_const(bt_message_packet_end_borrow_packet_const(m));
        case BT_MESSAGE_TYPE_STREAM_BEGINNING:
            return bt_message_stream_beginning_borrow_stream_const(m);
        case BT_MESSAGE_TYPE_STREAM_END:
            return bt_message_stream_end_borrow_stream_const(m);
        case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
            return bt_message_discarded_events_borrow_stream_const(m);
        case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
            return bt_message_discarded_packets_borrow_stream_const(m);
        default:
            return nullptr;
    }
}

// "stream 3 (class 0) of trace 'NAME'", for the error messages.
std::string describe_stream(const bt_message* m) {
    const bt_stream* s = stream_of(m);
    if (s == nullptr) return "an iterator inactivity message";
    const char* name = bt_trace_get_name(bt_stream_borrow_trace_const(s));
    return "stream " + std::to_string(bt_stream_get_id(s)) + " (class " +
           std::to_string(bt_stream_class_get_id(bt_stream_borrow_class_const(s))) + ") of trace " +
           (name != nullptr ? "'" + std::string(name) + "'" : "without a name");
}

const bt_stream_class* class_of(const bt_message* m) {
    return bt_stream_borrow_class_const(stream_of(m));
}

// The default clock snapshot of a message, when it has one (the muxer's get_msg_ts_ns()): the
// packet and discarded-item messages have one when their stream class says so.
const bt_clock_snapshot* snapshot_of(const bt_message* m) {
    const bt_clock_snapshot* cs = nullptr;
    switch (bt_message_get_type(m)) {
        case BT_MESSAGE_TYPE_EVENT:
            return bt_message_event_borrow_default_clock_snapshot_const(m);
        case BT_MESSAGE_TYPE_PACKET_BEGINNING:
            return bt_stream_class_packets_have_beginning_default_clock_snapshot(class_of(m))
                       ? bt_message_packet_beginning_borrow_default_clock_snapshot_const(m)
                       : nullptr;
        case BT_MESSAGE_TYPE_PACKET_END:
            return bt_stream_class_packets_have_end_default_clock_snapshot(class_of(m))
                       ? bt_message_packet_end_borrow_default_clock_snapshot_const(m)
                       : nullptr;
        case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
            return bt_stream_class_discarded_events_have_default_clock_snapshots(class_of(m))
                       ? bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(
                             m)
                       : nullptr;
        case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
            return bt_stream_class_discarded_packets_have_default_clock_snapshots(class_of(m))
                       ? bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(
                             m)
                       : nullptr;
        case BT_MESSAGE_TYPE_STREAM_BEGINNING:
            return bt_message_stream_beginning_borrow_default_clock_snapshot_const(m, &cs) ==
                           BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN
                       ? cs
                       : nullptr;
        case BT_MESSAGE_TYPE_STREAM_END:
            return bt_message_stream_end_borrow_default_clock_snapshot_const(m, &cs) ==
                           BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN
                       ? cs
                       : nullptr;
        case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
            return bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(m);
        default:
            return nullptr;
    }
}

// <0 when `a` goes first, >0 when `b` does: present before absent, then `less`.
template <typename T, typename Less>
int present_first(const T* a, const T* b, Less cmp) {
    if (a != nullptr && b == nullptr) return -1;
    if (a == nullptr && b != nullptr) return 1;
    if (a == nullptr) return 0;
    return cmp(a, b);
}

int compare_ids(std::uint64_t a, std::uint64_t b) {
    return a == b ? 0 : (a < b ? -1 : 1);
}

// The muxer's order of two messages of different streams at the same time.
int compare_streams(const bt_stream* a, const bt_stream* b) {
    const bt_trace* ta = a != nullptr ? bt_stream_borrow_trace_const(a) : nullptr;
    const bt_trace* tb = b != nullptr ? bt_stream_borrow_trace_const(b) : nullptr;
    int c = present_first(ta, tb, [](const bt_trace* x, const bt_trace* y) {
        return present_first(
            bt_trace_get_uuid(x), bt_trace_get_uuid(y),
            [](const std::uint8_t* u, const std::uint8_t* v) { return std::memcmp(u, v, 16); });
    });
    if (c != 0) return c;
    c = present_first(ta, tb, [](const bt_trace* x, const bt_trace* y) {
        return present_first(bt_trace_get_name(x), bt_trace_get_name(y), std::strcmp);
    });
    if (c != 0) return c;
    c = present_first(a, b, [](const bt_stream* x, const bt_stream* y) {
        return compare_ids(bt_stream_class_get_id(bt_stream_borrow_class_const(x)),
                           bt_stream_class_get_id(bt_stream_borrow_class_const(y)));
    });
    if (c != 0) return c;
    return present_first(a, b, [](const bt_stream* x, const bt_stream* y) {
        return compare_ids(bt_stream_get_id(x), bt_stream_get_id(y));
    });
}

}  // namespace

StreamMerge::~StreamMerge() {
    clear();
}

void StreamMerge::clear() {
    for (auto& u : active_)
        for (std::uint64_t i = u.pos; i < u.count; ++i) bt_message_put_ref(u.messages[i]);
    active_.clear();
    held_error_.reset();
}

bool StreamMerge::check_clock_class(const bt_clock_class* cc) {
    if (cc == nullptr) {
        if (expect_ == Expect::Any) expect_ = Expect::NoClock;
        if (expect_ == Expect::NoClock) return true;
        failure_ = Error::at(ErrorKind::Malformed,
                             "a stream without a clock among streams with one: their events "
                             "cannot be put in one order");
        return false;
    }
    const std::uint8_t* uuid = bt_clock_class_get_uuid(cc);
    const bool epoch = bt_clock_class_origin_is_unix_epoch(cc) == BT_TRUE;
    if (expect_ == Expect::Any) {
        expect_ = epoch ? Expect::Absolute : uuid != nullptr ? Expect::Uuid : Expect::NoUuid;
        if (expect_ == Expect::Uuid) std::memcpy(uuid_.data(), uuid, uuid_.size());
    }
    const char* why = nullptr;
    switch (expect_) {
        case Expect::Absolute:
            if (!epoch) why = "a clock without the Unix epoch as origin among clocks with it";
            break;
        case Expect::Uuid:
            if (epoch || uuid == nullptr || std::memcmp(uuid, uuid_.data(), uuid_.size()) != 0)
                why = "a clock other than the first stream's (another UUID or origin)";
            break;
        case Expect::NoUuid:
            if (epoch || uuid != nullptr)
                why = "a clock with a UUID or the Unix epoch among clocks with neither";
            break;
        case Expect::NoClock:
            why = "a stream with a clock among streams without one";
            break;
        case Expect::Any:
            break;
    }
    if (why == nullptr) return true;
    const char* name = bt_clock_class_get_name(cc);
    failure_ = Error::at(ErrorKind::Malformed,
                         std::string(why) + " (clock " +
                             (name != nullptr ? "'" + std::string(name) + "'" : "without a name") +
                             "): their events cannot be put in one order");
    return false;
}

bool StreamMerge::time_head(Upstream& u) {
    const bt_message* m = u.messages[u.pos];
    const bt_message_type type = bt_message_get_type(m);
    // Nearly every message: an event of a stream whose clock was checked at its beginning (with
    // a clock expected, every stream began with one; a stream without stops the merge there).
    if (type == BT_MESSAGE_TYPE_EVENT && expect_ != Expect::Any && expect_ != Expect::NoClock) {
        const bt_clock_snapshot* cs = bt_message_event_borrow_default_clock_snapshot_const(m);
        u.timed = bt_clock_snapshot_get_ns_from_origin(cs, &u.ts) ==
                  BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK;
        if (u.timed) return true;
    }
    u.timed = false;
    if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
        const bt_stream_class* sc =
            bt_stream_borrow_class_const(bt_message_stream_beginning_borrow_stream_const(m));
        if (!check_clock_class(bt_stream_class_borrow_default_clock_class_const(sc))) {
            failure_->message += " at the beginning of " + describe_stream(m);
            return false;
        }
    } else if (type == BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY) {
        if (!check_clock_class(bt_clock_snapshot_borrow_clock_class_const(
                bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(m))))
            return false;
    }
    if (expect_ == Expect::NoClock) return true;
    // Before any stream began nothing says the stream has a clock: ask (an event of a stream
    // class without one has no snapshot to borrow).
    if (expect_ == Expect::Any && type == BT_MESSAGE_TYPE_EVENT &&
        bt_message_event_borrow_stream_class_default_clock_class_const(m) == nullptr)
        return true;
    const bt_clock_snapshot* cs = snapshot_of(m);
    if (cs == nullptr) return true;
    if (bt_clock_snapshot_get_ns_from_origin(cs, &u.ts) !=
        BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
        failure_ =
            Error::at(ErrorKind::Malformed,
                      "a time beyond 64-bit ns from the clock's origin in " + describe_stream(m) +
                          " (clock value " + std::to_string(bt_clock_snapshot_get_value(cs)) + ")");
        return false;
    }
    u.timed = true;
    return true;
}

StreamMerge::Pull StreamMerge::refill_at(std::size_t i, bool time) {
    Upstream& u = active_[i];
    if (u.pos == u.count) {
        bt_message_array_const messages = nullptr;
        std::uint64_t count = 0;
        switch (bt_message_iterator_next(u.it.get(), &messages, &count)) {
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
                if (count == 0) {  // the API promises at least one
                    failure_ = Error::at(ErrorKind::Internal,
                                         "libbabeltrace2 handed on an empty batch of messages");
                    return Pull::Failed;
                }
                u.messages = messages;
                u.count = count;
                u.pos = 0;
                break;
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
                // Erased in place, not swapped with the last: equal streams keep port order.
                active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
                return Pull::End;
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
                return Pull::Again;
            default:
                return Pull::Failed;
        }
    }
    return !time || time_head(u) ? Pull::Messages : Pull::Failed;
}

StreamMerge::Pull StreamMerge::refill() {
    // At first every upstream has to be read; afterwards only the one last taken from can have
    // used its batch up.
    if (!primed_) {
        // All of them read before any is timed (and its clock checked), as the muxer does: a
        // later stream's decoding error comes before an earlier stream's clock refusal.
        for (std::size_t i = 0; i < active_.size();) {
            const Pull p = refill_at(i, false);
            if (p == Pull::Again || p == Pull::Failed) return p;
            if (p == Pull::Messages) ++i;
        }
        for (auto& u : active_)
            if (!time_head(u)) return Pull::Failed;
        primed_ = true;
    } else if (taken_ < active_.size() && active_[taken_].pos == active_[taken_].count) {
        const Pull p = refill_at(taken_, true);
        if (p == Pull::Again || p == Pull::Failed) return p;
    }
    return active_.empty() ? Pull::End : Pull::Messages;
}

bool StreamMerge::before(const Upstream& a, const Upstream& b) {
    return compare_streams(stream_of(a.messages[a.pos]), stream_of(b.messages[b.pos])) < 0;
}

StreamMerge::Pull StreamMerge::next(const bt_message** out, std::uint64_t capacity,
                                    std::uint64_t& count) {
    count = 0;
    if (held_ != Pull::Messages) {
        const Pull p = held_;
        if (p == Pull::Failed && held_error_) bt_current_thread_move_error(held_error_.release());
        return p;
    }
    Pull stop = Pull::Messages;
    while (count < capacity) {
        if (stop = refill(); stop != Pull::Messages) break;
        // The earliest; at the same time the stream before by trace and ids, else the earlier
        // port (the lower index: `best` is only replaced by a stream strictly before it).
        std::size_t best = 0;
        std::int64_t best_ns = active_[0].timed ? active_[0].ts : last_ns_;
        for (std::size_t i = 1; i < active_.size(); ++i) {
            const std::int64_t ns = active_[i].timed ? active_[i].ts : last_ns_;
            if (ns < best_ns || (ns == best_ns && before(active_[i], active_[best]))) {
                best = i;
                best_ns = ns;
            }
        }
        Upstream& u = active_[best];
        if (best_ns < last_ns_) {
            failure_ = Error::at(ErrorKind::Malformed,
                                 "time goes back: " + describe_stream(u.messages[u.pos]) +
                                     " has a message at " + std::to_string(best_ns) +
                                     " ns from its clock's origin after one at " +
                                     std::to_string(last_ns_) + " ns was read");
            stop = Pull::Failed;
            break;
        }
        out[count++] = u.messages[u.pos++];
        last_ns_ = best_ns;
        taken_ = best;
        if (u.pos < u.count && !time_head(u)) {
            stop = Pull::Failed;
            break;
        }
    }
    if (count == 0) return stop;
    // An end or a failure comes with the next call; an Again does not stay (that call asks
    // the upstream again).
    if (stop == Pull::Failed && !failure_) held_error_.reset(bt_current_thread_take_error());
    if (stop != Pull::Again) held_ = stop;
    return Pull::Messages;
}

}  // namespace apcgate::collectors::ctf
