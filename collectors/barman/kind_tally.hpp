// Records read, mapped and skipped by record type, added to an IngestReport once per poll. The
// report counts by kind name in a map; a lookup per record and per count would cost more than
// decoding a record does, and the totals are the same when added in bulk.
#pragma once

#include <array>
#include <cstdint>

#include "collectors/barman/record_kinds.hpp"
#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::barman {

class KindTally {
  public:
    void read(std::uint32_t type) { ++at(type).read; }
    void mapped(std::uint32_t type) { ++at(type).mapped; }
    void skipped(std::uint32_t type) { ++at(type).skipped; }

    // Adds the counts to `report` (under kind::of_type()'s names) and starts again from zero.
    void flush(ingest::IngestReport& report) {
        for (std::uint32_t type = 0; type < counts_.size(); ++type) {
            ingest::RecordStats& c = counts_[type];
            const std::string_view kind = kind::of_type(type);
            if (c.read != 0) report.read(kind, c.read);
            if (c.mapped != 0) report.mapped(kind, c.mapped);
            if (c.skipped != 0) report.skipped(kind, c.skipped);
            c = {};
        }
    }

  private:
    // Types 1 to 9 by their number; 0 stands for every other (kind::kUnknown).
    ingest::RecordStats& at(std::uint32_t type) {
        return counts_[type < counts_.size() ? type : 0];
    }

    std::array<ingest::RecordStats, 10> counts_{};
};

}  // namespace apcgate::collectors::barman
