// What a record means on the capture timeline, between reading and mapping: the item builder
// turns records (file order, per provider) into items with absolute ns timestamps; the archive
// reader releases them in time order; the model mapper turns them into model events. Items own
// their text, so nothing downstream depends on the provider's tables any more.
#pragma once

#include <cstdint>
#include <string>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::fxt {

enum class ItemKind : std::uint8_t {
    Note,         // instant, async instant or log: a zero-length annotation on the thread
    SpanOpen,     // duration begin (end unknown) or complete (end in `value`)
    SpanClose,    // duration end: closes the thread's innermost begun span
    AsyncOpen,    // async begin on the channel of correlation id `id`
    AsyncClose,   // async end
    FlowOpen,     // flow begin on the channel of flow id `id`
    FlowStep,     // flow step: the flow's channel shows the step's text from here on
    FlowClose,    // flow end
    Counter,      // one counter value: series `id`, value `value` (already scaled)
    Switch,       // context switch on `cpu`: `tid` comes in (-1 idle), `other` goes out
    ThreadName,   // kernel object of a thread: `tid` of process `pid` is called `text`
    ProcessName,  // kernel object of a process: `pid` is called `text`
    Marker,       // a bookmark (e.g. a provider's buffer filled up)
};

// Context switch flags.
inline constexpr std::uint32_t kOutgoingDead = 1;       // TaskExit for the outgoing thread
inline constexpr std::uint32_t kOutgoingPreempted = 2;  // wait state Contention, else Other
inline constexpr std::uint32_t kOutgoingIdle = 4;

inline constexpr model::Nanos kOpenEnded = INT64_MAX;  // SpanOpen of a duration begin

struct Item {
    model::Nanos ts = 0;    // absolute ns in the archive's clock
    std::uint64_t seq = 0;  // file order within a provider: the tie-break of equal timestamps
    ItemKind kind = ItemKind::Note;
    std::int32_t tid = 0;
    std::int32_t pid = 0;
    std::int32_t cpu = 0;
    std::int32_t other = 0;
    std::uint32_t flags = 0;
    std::uint64_t id = 0;
    std::int64_t value = 0;
    std::string text;
};

// Min-heap order: earliest first, file order among equals.
struct LaterItem {
    bool operator()(const Item& a, const Item& b) const {
        return a.ts != b.ts ? a.ts > b.ts : a.seq > b.seq;
    }
};

}  // namespace apcgate::collectors::fxt
