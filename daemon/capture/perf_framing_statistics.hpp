// The Perf framing's statistics, declared once: what it forwarded from the kernel's rings and
// what did not reach the capture. Counted per capture (one PerfFramingCapture per capture).
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

enum class PerfFramingStat : std::uint8_t {
    Frames,
    Bytes,
    RecordBytes,
    Records,
    LostRecords,
    LostEvents,
    MalformedBytes,
    PollsHeldBack,
    EventsWithoutFrame,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(PerfFramingStat::Count)>
    kPerfFramingStatistics{{
        {"perf_framing_frames", Severity::Info, "frames sent"},
        {"perf_framing_bytes", Severity::Info, "bytes of frame bodies sent"},
        {"perf_framing_record_bytes", Severity::Info,
         "bytes of the kernel's perf records forwarded as they are"},
        {"perf_framing_records", Severity::Info, "perf records forwarded"},
        {"perf_framing_lost_records", Severity::DataLoss,
         "LOST and LOST_SAMPLES records: the kernel's rings were full and it dropped records "
         "(perf_framing_lost_events says how many)"},
        {"perf_framing_lost_events", Severity::DataLoss,
         "records the kernel says it dropped because its rings were full"},
        {"perf_framing_malformed_bytes", Severity::Error,
         "bytes of a ring that did not hold whole records, not forwarded"},
        {"perf_framing_polls_held_back", Severity::Info,
         "polls that left the records in the kernel's rings because the client read slowly"},
        {"perf_framing_events_without_frame", Severity::DataLoss,
         "events of other sources (e.g. text annotations) that no Perf-type frame carries, not "
         "sent; --framing gator carries them"},
    }};

using PerfFramingStatistics = model::Statistics<PerfFramingStat, kPerfFramingStatistics>;

}  // namespace apcgate::daemon
