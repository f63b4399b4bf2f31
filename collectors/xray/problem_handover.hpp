// Problems met on the decoding thread travel to the polling thread's report with each batch:
// the decoders write into a report of their own (never the one the capture shows, which the
// engine reads meanwhile), and the polling thread adds it to the source's report. The adding
// keeps every count exact, including the problems a report counts beyond the ones it keeps.
#pragma once

#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::xray {

// Adds the problems of `from` (their per-kind bad counts, the kept problems in order and the
// count of the others), its per-kind read/mapped/skipped counts and its format's statistics to
// `to`.
void add_report(const ingest::IngestReport& from, ingest::IngestReport& to);

}  // namespace apcgate::collectors::xray
