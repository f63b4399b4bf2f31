// Turns one parsed record into timeline items (items.hpp) and counts it in the report: what is
// mapped, what is read but skipped (blobs, wakeups, fiber switches), what only feeds tables.
// Records have their provider's tables at hand here (for ticks and pointer labels); after this
// step items carry everything they need as values. Their texts are written into strings taken
// from a pool that the items' consumer gives them back to (recycle()).
#pragma once

#include <string>
#include <vector>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/items.hpp"
#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/records.hpp"
#include "collectors/fxt/text.hpp"
#include "collectors/fxt/text_pool.hpp"
#include "collectors/fxt/tokenizer.hpp"
#include "collectors/ingest/ingest_report.hpp"
#include "collectors/ingest/kind_tally.hpp"

namespace apcgate::collectors::fxt {

class ItemBuilder {
  public:
    // `koids` is shared with the model mapper: both must hand out the same ids. `spare_texts`:
    // the most strings kept for reuse (TextPool).
    ItemBuilder(const ArchiveIndex& index, KoidMap& koids, ingest::IngestReport& report,
                std::size_t spare_texts = TextPool::kDefaultLimit);

    // Appends the items of `rec` to `out`. `now` is the time of records without a timestamp
    // (names): the provider's current low bound, so they come before what follows them.
    void build(const RawRecord& raw, const Record& rec, const ProviderTables& tables,
               model::Nanos now, std::vector<Item>& out);
    // The same for an event record parsed on its own (RecordParser::parse_event). `start`: its
    // timestamp in ns when the caller has it already (nullopt: worked out, and reported when it
    // does not fit, here).
    void build(const RawRecord& raw, const EventRecord& e, const ProviderTables& tables,
               model::Nanos now, std::optional<model::Nanos> start, std::vector<Item>& out);
    // The same for a scheduling record parsed on its own (RecordParser::parse_scheduling).
    void build(const RawRecord& raw, const SchedulingRecord& s, const ProviderTables& tables,
               model::Nanos now, std::optional<model::Nanos> start, std::vector<Item>& out);
    // Adds the counts kept since the last call to the report.
    void flush_counts() { tally_.flush(report_); }
    // Takes back the texts of `items`, which the caller is done with, for later items to be
    // written into, and clears `items`.
    void recycle(std::vector<Item>& items);
    [[nodiscard]] const TextPool& texts() const { return texts_; }

  private:
    struct Context {
        const RawRecord& raw;
        const ProviderTables& tables;
        model::Nanos now;
        std::vector<Item>& out;
        std::optional<model::Nanos> start = std::nullopt;  // the record's time, if known
    };
    // Counts a record that maps to items: read, then mapped or (nothing made) skipped.
    template <typename R>
    void build_mapped(const RawRecord& raw, const R& r, const ProviderTables& tables,
                      model::Nanos now, std::optional<model::Nanos> start, std::vector<Item>& out);
    void add(const Context& c, const EventRecord& e);
    void add(const Context& c, const ContextSwitchRecord& s);
    void add(const Context& c, const LogRecord& l);
    void add(const Context& c, const KernelObjectRecord& k);
    void add(const Context& c, const ProviderEventRecord& p);
    void counter(const Context& c, const EventRecord& e, model::Nanos ts);
    // The record's time in ns (`ticks` are its start), or nullopt after reporting it as bad.
    std::optional<model::Nanos> time(const Context& c, std::uint64_t ticks);
    Item& item(const Context& c, ItemKind kind, model::Nanos ts);
    // Sets the item's text to `in` cleaned (append_utf8), in a string from the pool.
    void clean_text(Item& it, std::string_view in);
    std::int32_t id(std::uint64_t koid) { return koids_.id(koid); }

    const ArchiveIndex& index_;
    ingest::IngestReport& report_;
    ingest::KindTally tally_;
    KoidMap& koids_;
    const ProviderTables* tables_ = nullptr;  // of the record being built, for value labels
    ValueLabels labels_;
    TextPool texts_;
    std::uint64_t seq_ = 0;
    bool bad_time_ = false;  // the record being built had a timestamp past 2^63 ns
};

}  // namespace apcgate::collectors::fxt
