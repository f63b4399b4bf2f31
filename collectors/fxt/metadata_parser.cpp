// Metadata, initialization, string and thread records (spec "Metadata record", "Provider info
// metadata", "Provider section metadata", "Provider event metadata", "Trace info metadata",
// "Magic number record", "Initialization record", "String record", "Thread record"):
//
//   metadata (type 0)   header: [16..19] metadata type
//     provider info  1: [20..51] provider id | [52..59] name length   then name stream
//     provider section 2: [20..51] provider id
//     provider event 3: [20..51] provider id | [52..55] event id (0: buffer full, records lost)
//     trace info     4: [20..23] trace info type; type 0 = magic: [24..55] 0x16547846
//   initialization (1)  header only, then word: ticks per second
//   string (2)          header: [16..30] index | [32..46] length          then string stream
//   thread (3)          header: [16..23] index                           then pid word, tid word
#include "collectors/fxt/record_parser.hpp"

namespace apcgate::collectors::fxt::detail {

void parse_metadata(RecordCursor& c, Record& out) {
    const auto id = static_cast<std::uint32_t>(c.field(20, 51));
    switch (static_cast<MetadataType>(c.field(16, 19))) {
        case MetadataType::ProviderInfo:
            out = ProviderInfoRecord{id, c.stream(c.field(52, 59), "provider name")};
            return;
        case MetadataType::ProviderSection:
            out = ProviderSectionRecord{id};
            return;
        case MetadataType::ProviderEvent:
            out = ProviderEventRecord{id, static_cast<std::uint32_t>(c.field(52, 55))};
            return;
        case MetadataType::TraceInfo: {
            const auto info_type = static_cast<std::uint32_t>(c.field(20, 23));
            if (info_type != kTraceInfoMagic) {
                out = TraceInfoRecord{info_type};
                return;
            }
            if (c.field(24, 55) != kMagicValue) c.fail_header("wrong magic number", "magic");
            out = MagicRecord{};
            return;
        }
    }
    c.fail_header("unknown metadata type " + std::to_string(c.field(16, 19)), "metadata type");
}

void parse_initialization(RecordCursor& c, Record& out) {
    InitializationRecord r{c.word("ticks per second")};
    if (c.ok() && r.ticks_per_second == 0) c.fail("ticks per second is 0", "ticks per second");
    out = r;
}

void parse_string(RecordCursor& c, Record& out) {
    StringRecord r;
    r.index = static_cast<std::uint16_t>(c.field(16, 30));
    r.text = c.stream(c.field(32, 46), "string value");
    out = r;
}

void parse_thread(RecordCursor& c, Record& out) {
    ThreadRecord r;
    r.index = static_cast<std::uint8_t>(c.field(16, 23));
    r.thread.pid = c.word("process koid");
    r.thread.tid = c.word("thread koid");
    out = r;
}

}  // namespace apcgate::collectors::fxt::detail
