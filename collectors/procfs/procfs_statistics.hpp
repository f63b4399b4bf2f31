// The /proc and /sys collector's statistics, declared once; counted per capture.
#pragma once

#include <array>

#include "protocol/model/statistic.hpp"

namespace apcgate::collectors::procfs {

enum class ProcfsStat : std::uint8_t {
    Samples,
    ReadErrors,
    ParseErrors,
    ThreadsNamed,
    ThreadsSkipped,
    TasksVanished,
    Count,
};

using model::Severity;

inline constexpr std::array<model::StatisticSpec, static_cast<std::size_t>(ProcfsStat::Count)>
    kProcfsStatistics{{
        {"procfs_samples", Severity::Info, "times the /proc and /sys counters were sampled"},
        {"procfs_read_errors", Severity::DataLoss,
         "times a /proc or /sys file could not be opened or read, so its counters have no value "
         "for that sample (counted once per file and sample)"},
        {"procfs_parse_errors", Severity::Error,
         "times a /proc file lacked or garbled a value it should hold; the values it did hold "
         "were kept"},
        {"procfs_threads_named", Severity::Info,
         "threads alive at capture start whose process and thread names were sent"},
        {"procfs_threads_skipped", Severity::DataLoss,
         "threads alive at capture start beyond the limit, left without a name until the "
         "scheduler trace names them"},
        {"procfs_tasks_vanished", Severity::Info,
         "processes or threads that exited while the capture start listed them (normal on a busy "
         "system)"},
    }};

using ProcfsStatistics = model::Statistics<ProcfsStat, kProcfsStatistics>;

}  // namespace apcgate::collectors::procfs
