// The APC encoder's statistics, declared once: what it wrote, and what it changed to fit the
// protocol's rules. Counted per capture (one Encoder per capture).
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::apc {

enum class EncoderStat : std::uint8_t {
    Frames,
    Bytes,
    UnknownKey,
    TruncatedNames,
    TruncatedBacktraces,
    SplitPayloads,
    OutOfOrder,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(EncoderStat::Count)>
    kEncoderStatistics{{
        {"encoder_frames", Severity::Info, "APC frames written"},
        {"encoder_bytes", Severity::Info, "bytes of APC frame bodies written"},
        {"encoder_unknown_key", Severity::DataLoss,
         "counter values dropped because their counter was not enabled in the capture"},
        {"encoder_truncated_names", Severity::DataLoss,
         "names, annotation texts and summary attributes cut short or left out to fit the frame "
         "size limit"},
        {"encoder_truncated_backtraces", Severity::DataLoss,
         "call stacks that lost their outermost frames to fit the frame size limit"},
        {"encoder_split_payloads", Severity::Info,
         "annotation or external data payloads split over several frames (nothing lost)"},
        {"encoder_out_of_order", Severity::DataLoss,
         "events older than the previous event on their core, moved to that event's time"},
    }};

using EncoderStatistics = model::Statistics<EncoderStat, kEncoderStatistics>;

}  // namespace apcgate::apc
