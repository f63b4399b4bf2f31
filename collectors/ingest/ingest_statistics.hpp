// A trace input's statistics, declared once: the totals of its IngestReport over all record
// kinds (the report keeps the per-kind counts and the problems themselves beside them).
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::ingest {

enum class IngestStat : std::uint8_t {
    RecordsRead,
    RecordsMapped,
    RecordsSkipped,
    RecordsBad,
    Problems,
    BytesUnread,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(IngestStat::Count)>
    kIngestStatistics{{
        {"records_read", Severity::Info, "records of the input decoded"},
        {"records_mapped", Severity::Info, "records turned into events of the capture"},
        {"records_skipped", Severity::Info,
         "records decoded but not shown (kinds the capture has no place for, or orphaned); the "
         "per-kind counts say which"},
        {"records_bad", Severity::Error, "malformed records, reported and skipped"},
        {"problems", Severity::Error,
         "problems in the input: malformed records and what ended reading early"},
        {"bytes_unread", Severity::DataLoss,
         "bytes of the input after the problem that ended reading early, not in the capture"},
    }};

using IngestStatistics = model::Statistics<IngestStat, kIngestStatistics>;

}  // namespace apcgate::collectors::ingest
