// What `apcgate report` could not show of a capture, declared once: each loss it counts, with
// its severity and a description, as a statistics table (protocol/model/statistic.hpp). The
// names are the keys of the report's "losses" (scripts read them). A count may carry a detail
// only the capture can give (a cut frame's error, a breakdown of the lines skipped).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "protocol/model/statistic.hpp"

namespace apcgate::daemon::analysis {

enum class AnalysisStat : std::uint8_t {
    TruncatedFrame,
    InvalidRecords,
    LostRecords,
    KallsymsLinesSkipped,
    MapsLinesSkipped,
    MappingsNotKept,
    FunctionsFolded,
    StacksFolded,
    SwitchSamplesUndecodable,
    SwitchSamplesWithoutFormat,
    FormatsUnreadable,
    AnnotationConnectionsBroken,
    AnnotationBytesNotFollowed,
    AnnotationBytesUnfinished,
    SpansOpenAtEnd,
    SpansNotFollowed,
    NamesFolded,
    Count,
};

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(AnalysisStat::Count)>
    kAnalysisStatistics{{
        {"truncated_frame", model::Severity::DataLoss,
         "the capture's last frame is cut short (a recorder killed mid-write): the report covers "
         "the frames before it"},
        {"invalid_records", model::Severity::Error,
         "frames or records that break the Perf framing's rules (see apcgate inspect): skipped"},
        {"lost_records", model::Severity::DataLoss,
         "LOST and LOST_SAMPLES records: the kernel dropped events while recording"},
        {"kallsyms_lines_skipped", model::Severity::DataLoss,
         "KALLSYMS lines that name no kernel function (not /proc/kallsyms lines, names too long, "
         "or past the report's bound on symbols): the addresses they name are [kernel]"},
        {"maps_lines_skipped", model::Severity::DataLoss,
         "MAPS lines that are not /proc/PID/maps lines or are too long: the addresses they map "
         "are [unknown]"},
        {"mappings_not_kept", model::Severity::DataLoss,
         "mappings (MAPS lines, MMAP records) past the report's bounds on mappings per process, "
         "processes or images: the addresses they map are [unknown]"},
        {"functions_folded", model::Severity::DataLoss,
         "stack frames of functions past the report's bound on distinct functions, counted "
         "under (other)"},
        {"stacks_folded", model::Severity::DataLoss,
         "samples of stacks past the report's bound on distinct stacks, counted under (other "
         "stacks)"},
        {"switch_samples_undecodable", model::Severity::Error,
         "sched:sched_switch samples whose payload does not fit the capture's FORMAT of that "
         "tracepoint: skipped (CPU time misses those switches)"},
        {"switch_samples_without_format", model::Severity::DataLoss,
         "tracepoint samples with no sched_switch FORMAT message in the capture to decode them: "
         "skipped (CPU time misses them if they are switches)"},
        {"formats_unreadable", model::Severity::Error,
         "FORMAT messages that are not a tracefs format file"},
        {"annotation_connections_broken", model::Severity::Error,
         "application annotation connections whose bytes break the annotation protocol: the "
         "rest of each was skipped"},
        {"annotation_bytes_not_followed", model::Severity::DataLoss,
         "bytes of annotation connections past the report's bound on connections open at once: "
         "skipped"},
        {"annotation_bytes_unfinished", model::Severity::DataLoss,
         "annotation bytes at the capture's end that do not make a whole annotation"},
        {"spans_open_at_end", model::Severity::DataLoss,
         "spans still open when the capture ended, closed at its last timestamp"},
        {"spans_not_followed", model::Severity::DataLoss,
         "spans on channels past the report's bound on sparse channel ids: not counted"},
        {"names_folded", model::Severity::DataLoss,
         "spans or instants past the report's bound on distinct names, counted under (other "
         "spans) or (other instants)"},
    }};

using AnalysisStatistics = model::Statistics<AnalysisStat, kAnalysisStatistics>;

// The report's losses: a count per statistic of the table and, for some, a detail.
class Losses {
  public:
    // Counts `n` (none when 0) and keeps `detail` ("" keeps any earlier one).
    void add(AnalysisStat what, std::uint64_t n, std::string detail = {}) {
        if (n == 0) return;
        counts_[what] += n;
        if (!detail.empty()) details_[static_cast<std::size_t>(what)] = std::move(detail);
    }
    [[nodiscard]] std::uint64_t operator[](AnalysisStat what) const { return counts_[what]; }
    [[nodiscard]] const std::string& detail(AnalysisStat what) const {
        return details_[static_cast<std::size_t>(what)];
    }
    // The detail of one of values().
    [[nodiscard]] const std::string& detail(const model::StatisticValue& v) const {
        return details_[static_cast<std::size_t>(v.spec - kAnalysisStatistics.data())];
    }
    [[nodiscard]] const AnalysisStatistics& counts() const { return counts_; }
    // The non-zero statistics, in table order.
    [[nodiscard]] std::vector<model::StatisticValue> values() const {
        std::vector<model::StatisticValue> out;
        for (const auto& v : counts_.values())
            if (v.value != 0) out.push_back(v);
        return out;
    }
    [[nodiscard]] bool empty() const { return values().empty(); }

  private:
    AnalysisStatistics counts_;
    std::array<std::string, AnalysisStatistics::kSize> details_;
};

}  // namespace apcgate::daemon::analysis
