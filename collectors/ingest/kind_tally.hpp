// Records read, mapped and skipped per record kind, added to an IngestReport in one go: the
// report counts by kind name in a map, and a lookup per record costs a visible share of a fast
// reader's time. Kinds are each reader's constants (its record_kinds.hpp), so one kind is
// always the same characters and a pointer compare finds it; were a kind's characters ever at
// two addresses, it would get two entries and the report the same totals.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::ingest {

class KindTally {
  public:
    void read(std::string_view kind) { ++at(kind).stats.read; }
    void mapped(std::string_view kind) { ++at(kind).stats.mapped; }
    void skipped(std::string_view kind) { ++at(kind).stats.skipped; }
    // One kind's counts, to add to several at once (valid until another kind is first counted).
    RecordStats& stats(std::string_view kind) { return at(kind).stats; }
    // Adds the counts to `report` and starts again from zero.
    void flush(IngestReport& report);

  private:
    struct Entry {
        std::string_view kind;
        RecordStats stats;
    };
    static bool same(const Entry& e, std::string_view kind) {
        return e.kind.data() == kind.data() && e.kind.size() == kind.size();
    }
    // A kind's entry is found through a small table indexed by its address first: a reader
    // counts a record under two or three kinds and has a dozen or more, and the search through
    // them cost more than the rest of the tally. Two kinds that share a slot take turns in it;
    // the search behind it finds either.
    Entry& at(std::string_view kind) {
        const std::size_t slot = (std::hash<const char*>{}(kind.data()) >> 3) % kSlots;
        if (const std::size_t i = slots_[slot]; i < entries_.size() && same(entries_[i], kind))
            return entries_[i];
        std::size_t i = 0;
        while (i < entries_.size() && !same(entries_[i], kind)) ++i;
        if (i == entries_.size()) entries_.push_back({kind, {}});
        slots_[slot] = static_cast<std::uint32_t>(i);
        return entries_[i];
    }
    static constexpr std::size_t kSlots = 64;
    std::vector<Entry> entries_;
    std::array<std::uint32_t, kSlots> slots_{};
};

}  // namespace apcgate::collectors::ingest
