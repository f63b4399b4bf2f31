// One provider's records, read in file order across its sections (archive_index.hpp), with the
// provider's own tables: tokenize, parse, apply to the tables, build items. It knows a low bound
// for the timestamps of everything it has not read yet, which lets the archive reader merge the
// providers in time order without holding more than the reorder window in memory.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/item_builder.hpp"
#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/record_parser.hpp"
#include "collectors/fxt/tokenizer.hpp"
#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::fxt {

class ProviderStream {
  public:
    // `untimed` is the time of the items of a provider that has no timestamps at all.
    ProviderStream(std::span<const std::uint8_t> data, wire::Endian endian,
                   const ProviderIndex& provider, model::Nanos untimed);

    // Reads the next record, appending its items to `out`. Returns the input bytes consumed
    // (0 once the stream has ended).
    std::size_t step(ItemBuilder& builder, ingest::IngestReport& report, std::vector<Item>& out);

    // Every item this stream has yet to produce has ts >= bound() (kNever once it is done).
    [[nodiscard]] model::Nanos bound() const;
    [[nodiscard]] bool done() const { return done_; }
    // Input offset of the next record to read: the stream reads nothing before it again
    // (SIZE_MAX once it is done).
    [[nodiscard]] std::size_t position() const;

  private:
    bool open_next_section();
    // A record's timestamp read: later records are bound by it (less the provider's lag). Its
    // time in ns, nullopt when it does not fit.
    std::optional<model::Nanos> note_time(std::uint64_t ticks);

    std::span<const std::uint8_t> data_;
    RecordParser parser_;
    const ProviderIndex& provider_;
    std::size_t next_section_ = 0;
    std::optional<Tokenizer> tokenizer_;
    model::Nanos first_;  // the provider's earliest timestamp (or `untimed`)
    ProviderTables tables_;
    Record record_;      // the record being read, reused: records are large (argument lists)
    EventRecord event_;  // the same for event records, which are most of them
    SchedulingRecord scheduling_;   // and for context switches and wakeups, most of the rest
    Error failure_;                 // of the event or scheduling record that failed to parse
    model::Nanos latest_ = kNever;  // latest timestamp read so far
    bool done_ = false;
};

}  // namespace apcgate::collectors::fxt
