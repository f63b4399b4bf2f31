// Turns one record the tokenizer split off into a typed Record (records.hpp), resolving string
// and thread refs through the provider's tables; no I/O, and it changes no state (applying
// string/thread/initialization records to the tables is the caller's next step). Errors carry
// the record's offset and kind and the field that failed; unknown record, metadata, event and
// scheduling types are errors too, so the caller reports them and skips by the record's size.
// Layouts are in the files that read them: metadata_parser.cpp, event_parser.cpp,
// object_parser.cpp, scheduling_parser.cpp.
#pragma once

#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/record_cursor.hpp"
#include "collectors/fxt/records.hpp"
#include "collectors/fxt/tokenizer.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::fxt {

class RecordParser {
  public:
    explicit RecordParser(wire::Endian endian) : endian_(endian) {}
    // Parses into `out` (reused between records: no record is copied on the way out).
    [[nodiscard]] Status parse(const RawRecord& raw, const ProviderTables& tables,
                               Record& out) const;
    // The same for an event record (is_event()), into an EventRecord of the caller's: most of
    // an archive's records are events, and this spares them the Record variant (its switch of
    // alternative, 800 bytes set up afresh after any other record, the visits behind it).
    // True when it parsed, else false with the failure in `failure`: not a Status, since
    // `return {}` value-initializes one, clearing its whole optional Error (184 bytes) for
    // every record that parses.
    [[nodiscard]] bool parse_event(const RawRecord& raw, const ProviderTables& tables,
                                   EventRecord& out, Error& failure) const;
    [[nodiscard]] static bool is_event(const RawRecord& raw) {
        return bits(raw.header, 0, 3) == static_cast<unsigned>(RecordType::Event);
    }
    // The same for a scheduling record (is_scheduling()): context switches, wakeups and fiber
    // switches change no table either.
    [[nodiscard]] bool parse_scheduling(const RawRecord& raw, const ProviderTables& tables,
                                        SchedulingRecord& out, Error& failure) const;
    [[nodiscard]] static bool is_scheduling(const RawRecord& raw) {
        return bits(raw.header, 0, 3) == static_cast<unsigned>(RecordType::Scheduling);
    }
    [[nodiscard]] wire::Endian endian() const { return endian_; }

  private:
    wire::Endian endian_;
};

namespace detail {
// Each reads the record the cursor is on into `out`; a failure is left in the cursor.
void parse_metadata(RecordCursor& c, Record& out);
void parse_initialization(RecordCursor& c, Record& out);
void parse_string(RecordCursor& c, Record& out);
void parse_thread(RecordCursor& c, Record& out);
void parse_event(RecordCursor& c, Record& out);
void parse_event(RecordCursor& c, EventRecord& e);
void parse_blob(RecordCursor& c, Record& out);
void parse_large(RecordCursor& c, Record& out);
void parse_userspace_object(RecordCursor& c, Record& out);
void parse_kernel_object(RecordCursor& c, Record& out);
void parse_scheduling(RecordCursor& c, Record& out);
void parse_scheduling(RecordCursor& c, SchedulingRecord& out);
void parse_log(RecordCursor& c, Record& out);
}  // namespace detail

}  // namespace apcgate::collectors::fxt
