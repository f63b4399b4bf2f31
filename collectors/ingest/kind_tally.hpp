// Records read, mapped and skipped per record kind, added to an IngestReport in one go: the
// report counts by kind name in a map, and a lookup per record costs a visible share of a fast
// reader's time. Kinds are each reader's constants (its record_kinds.hpp), so one kind is
// always the same characters and a pointer compare finds it; were a kind's characters ever at
// two addresses, it would get two entries and the report the same totals.
#pragma once

#include <string_view>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::ingest {

class KindTally {
  public:
    void read(std::string_view kind) { ++at(kind).stats.read; }
    void mapped(std::string_view kind) { ++at(kind).stats.mapped; }
    void skipped(std::string_view kind) { ++at(kind).stats.skipped; }
    // Adds the counts to `report` and starts again from zero.
    void flush(IngestReport& report);

  private:
    struct Entry {
        std::string_view kind;
        RecordStats stats;
    };
    Entry& at(std::string_view kind) {
        for (auto& e : entries_)
            if (e.kind.data() == kind.data() && e.kind.size() == kind.size()) return e;
        entries_.push_back({kind, {}});
        return entries_.back();
    }
    std::vector<Entry> entries_;
};

}  // namespace apcgate::collectors::ingest
