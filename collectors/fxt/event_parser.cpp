// Event records (spec "Event record" and its event types) and log records (spec "Log record"):
//
//   event (type 4) header: [16..19] event type | [20..23] argument count | [24..31] thread ref
//                          | [32..47] category ref | [48..63] name ref
//     timestamp word
//     [process koid word, thread koid word]          when the thread ref is 0 (inline)
//     [category stream] [name stream]                when the refs are inline
//     argument*                                      (record_cursor.hpp)
//     event-type word:  counter 1: counter id | complete 4: end timestamp
//                       async 5/6/7: async correlation id | flow 8/9/10: flow correlation id
//                       instant 0, duration begin 2 / end 3: none
//
//   log (type 9) header: [16..30] message length | [32..39] thread ref
//     timestamp word, [process koid word, thread koid word], message stream
#include "collectors/fxt/record_parser.hpp"

namespace apcgate::collectors::fxt::detail {

namespace {

std::string_view extra_word_name(EventType t) {
    switch (t) {
        case EventType::Counter:
            return "counter id";
        case EventType::DurationComplete:
            return "end timestamp";
        case EventType::AsyncBegin:
        case EventType::AsyncInstant:
        case EventType::AsyncEnd:
            return "async correlation id";
        default:
            return "flow correlation id";
    }
}

// False, with the failure in the cursor, for an event type this reader does not know.
bool known_type(RecordCursor& c) {
    const auto type = c.field(16, 19);
    if (type <= kLastEventType) return true;
    c.fail_header("unknown event type " + std::to_string(type), "event type");
    return false;
}

}  // namespace

void parse_event(RecordCursor& c, Record& out) {
    if (!known_type(c)) return;
    // Built in place, and reused from the record before when that was an event too: its
    // argument list is large, and every field is set here (the arguments up to their count).
    auto* reused = std::get_if<EventRecord>(&out);
    parse_event(c, reused != nullptr ? *reused : out.emplace<EventRecord>());
}

void parse_event(RecordCursor& c, EventRecord& e) {
    if (!known_type(c)) return;
    const auto type = c.field(16, 19);
    e.extra = 0;
    e.type = static_cast<EventType>(type);
    e.ticks = c.word("timestamp");
    e.thread = c.thread_ref(static_cast<std::uint8_t>(c.field(24, 31)), "thread");
    e.category = c.string_ref(static_cast<std::uint16_t>(c.field(32, 47)), "category");
    e.name = c.string_ref(static_cast<std::uint16_t>(c.field(48, 63)), "name");
    c.args(static_cast<unsigned>(c.field(20, 23)), e.args);
    if (has_extra_word(e.type)) e.extra = c.word(extra_word_name(e.type));
}

void parse_log(RecordCursor& c, Record& out) {
    LogRecord r;
    r.ticks = c.word("timestamp");
    r.thread = c.thread_ref(static_cast<std::uint8_t>(c.field(32, 39)), "thread");
    r.message = c.stream(c.field(16, 30), "log message");
    out = r;
}

}  // namespace apcgate::collectors::fxt::detail
