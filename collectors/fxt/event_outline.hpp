// The first pass's reading of an event record (archive_index.cpp): what the index keeps of it
// (its type, timestamp and thread) and whether it parses at all, without building it. The index
// needs no event's category, name or arguments (a counter's excepted, which it parses whole), and
// resolving and storing those was two thirds of the first pass's parsing. The record is walked
// with the checks RecordParser::parse_event makes (event_parser.cpp, record_cursor.cpp) in the
// same layout, so the first pass notes exactly the events the second pass reads:
//
//   header word          [16..19] event type | [20..23] argument count | [24..31] thread ref
//                        | [32..47] category ref | [48..63] name ref
//   timestamp word
//   [process koid word, thread koid word]               when the thread ref is 0
//   [category stream] [name stream]                     when the refs are inline
//   argument*: header word ([4..15] size in words, header included, not 0 | [16..31] name ref
//              | [32..47] value ref of a String), [name stream], [value word | value stream];
//              its content must fit its size, and its size the record
//   [extra word]                                        has_extra_word(type)
#pragma once

#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/tokenizer.hpp"

namespace apcgate::collectors::fxt {

struct EventOutline {
    EventType type = EventType::Instant;
    std::uint64_t ticks = 0;
    ThreadKoids thread;
};

// True exactly when RecordParser::parse_event parses `raw`, with the fields it would give in
// `out` (its thread resolved through `tables`, as the parser does).
[[nodiscard]] bool outline_event(const RawRecord& raw, wire::Endian endian,
                                 const ProviderTables& tables, EventOutline& out);

}  // namespace apcgate::collectors::fxt
