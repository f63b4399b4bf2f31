// An XRay input's own statistics, declared once: what reading and mapping a log met that is no
// record kind (those keep their read/mapped/skipped counts in the IngestReport). They reach the
// report with the record counts (Stats::flush) and are printed after the input's totals.
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::xray {

enum class XrayStat : std::uint8_t {
    ShortBuffers,
    ExitsWithoutEntry,
    EntriesWithoutExit,
    CallsDeeperThanLimit,
    Count,
};

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(XrayStat::Count)>
    kXrayStatistics{{
        {"xray_short_buffers", model::Severity::DataLoss,
         "FDR buffers that end inside a record because LLVM 14's runtime counts their extents 16 "
         "bytes short per typed event: the records in those bytes are not in the log; everything "
         "before them is kept"},
        {"xray_exits_without_entry", model::Severity::DataLoss,
         "function exits whose entry is not in the log (the call began before tracing did, or "
         "its entry was lost): those calls are not shown"},
        {"xray_entries_without_exit", model::Severity::DataLoss,
         "calls whose exit is not in the log (still open when their thread's data ended, or an "
         "outer call exited first): each is shown ending there, which may be before it did"},
        {"xray_calls_deeper_than_limit", model::Severity::DataLoss,
         "calls nested deeper than the levels a thread's spans are shown on (a bound against "
         "hostile logs, far beyond real recursion): matched with their exits but not shown"},
    }};

using XrayStatistics = model::Statistics<XrayStat, kXrayStatistics>;

}  // namespace apcgate::collectors::xray
