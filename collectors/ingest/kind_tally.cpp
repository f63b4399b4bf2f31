#include "collectors/ingest/kind_tally.hpp"

namespace apcgate::collectors::ingest {

void KindTally::flush(IngestReport& report) {
    for (auto& e : entries_) {
        if (e.stats.read > 0) report.read(e.kind, e.stats.read);
        if (e.stats.mapped > 0) report.mapped(e.kind, e.stats.mapped);
        if (e.stats.skipped > 0) report.skipped(e.kind, e.stats.skipped);
        e.stats = {};
    }
}

}  // namespace apcgate::collectors::ingest
