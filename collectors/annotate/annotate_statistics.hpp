// The annotation sources' statistics, declared once. Counted since the daemon started (the
// sockets outlive captures); AnnotateSource::statistics() hands out each capture's share.
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::annotate {

enum class AnnotateStat : std::uint8_t {
    // Data connections (the library's protocol, carried in External frames).
    Connections,
    Refused,
    DroppedProtocol,
    DroppedFlood,
    DroppedNoHandshake,
    Truncated,
    ForwardedBytes,
    // Parent connections (capture-start notifications).
    ParentClients,
    ParentNotified,
    ParentRefused,
    // The text form.
    TextLines,
    TextTruncated,
    TextBad,
    TextDiscarded,
    TextClients,
    // The I/O thread.
    LoopWakes,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(AnnotateStat::Count)>
    kAnnotateStatistics{{
        {"annotate_connections", Severity::Info, "annotation connections accepted"},
        {"annotate_refused", Severity::DataLoss,
         "annotation connections refused because too many were open; their annotations are "
         "missing"},
        {"annotate_dropped_protocol", Severity::DataLoss,
         "annotation connections closed because they did not speak the protocol, sent a "
         "malformed message or went over a size limit; what they sent after that is missing"},
        {"annotate_dropped_flood", Severity::DataLoss,
         "annotation connections closed because they kept their share of the capture's buffer "
         "full for too long; what they sent after that is missing"},
        {"annotate_dropped_no_handshake", Severity::DataLoss,
         "annotation connections closed because they sent no handshake in time"},
        {"annotate_truncated", Severity::Info,
         "annotation connections that closed in the middle of a message (normal when an "
         "application exits; forwarded as it arrived)"},
        {"annotate_forwarded_bytes", Severity::Info, "bytes of annotations forwarded"},
        {"annotate_parent_clients", Severity::Info,
         "connections that asked to be told when a capture starts"},
        {"annotate_parent_notified", Severity::Info, "capture-start notification bytes written"},
        {"annotate_parent_refused", Severity::Info,
         "capture-start connections refused or closed because too many were open or they did not "
         "read their notifications"},
        {"annotate_text_lines", Severity::Info, "text annotation lines forwarded"},
        {"annotate_text_truncated", Severity::DataLoss,
         "text annotation lines cut at the line length limit (the start was forwarded)"},
        {"annotate_text_bad", Severity::Error,
         "text annotation lines that were not text (they began with the binary escape 0x1C), "
         "not forwarded"},
        {"annotate_text_discarded", Severity::Info,
         "text annotation lines that arrived while no capture ran"},
        {"annotate_text_clients", Severity::Info, "text annotation connections accepted"},
        {"annotate_loop_wakes", Severity::Info,
         "times the capture woke the annotation thread after taking its events (only when it "
         "took some, or a connection waited to read)"},
    }};

using AnnotateStatistics = model::Statistics<AnnotateStat, kAnnotateStatistics>;

}  // namespace apcgate::collectors::annotate
