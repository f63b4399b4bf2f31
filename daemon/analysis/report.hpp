// What `apcgate report` says about a capture: the tables its writers print (report_output.hpp)
// and `apcgate diff` compares (report_diff.hpp). Built in one streaming pass over the capture
// (capture_analysis.hpp); every table is bounded by the number of distinct names (threads,
// functions, stacks, span names, counters), never by the capture's size.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/analysis/analysis_statistics.hpp"

namespace apcgate::daemon::analysis {

// Wait states of the Activity/Scheduler Trace frames, in the order of model::WaitState.
inline constexpr std::array<const char*, 3> kWaitStateNames = {"other", "contention", "io"};

struct ThreadRow {
    std::int32_t tid = 0;
    std::int32_t pid = -1;  // -1: not known
    std::string name;
    std::string process;
    std::int64_t cpu_ns = 0;                                            // running, over every core
    std::vector<std::pair<std::int32_t, std::int64_t>> cpu_ns_by_core;  // core -> running time
    std::array<std::int64_t, 3> wait_ns{};                              // by kWaitStateNames
    std::uint64_t samples = 0;  // CPU samples (Backtrace / SAMPLE)
};

struct ProcessRow {
    std::int32_t pid = -1;
    std::string name;
    std::int64_t cpu_ns = 0;
    std::uint64_t threads = 0;
    std::uint64_t samples = 0;
};

struct FunctionRow {
    std::string name;                 // symbol, or image+0xOFFSET when unresolved
    std::string image;                // the image's path ("" for [kernel] and [unknown])
    std::uint64_t self_samples = 0;   // samples with the function innermost
    std::uint64_t total_samples = 0;  // samples with the function anywhere in the stack
};

struct StackRow {
    std::string folded;  // outermost first, ';'-separated
    std::uint64_t samples = 0;
};

struct SpanRow {
    std::string name;
    std::uint64_t count = 0;
    std::int64_t total_ns = 0, min_ns = 0, median_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

struct InstantRow {
    std::string name;
    std::string kind;  // "marker", "instant" (zero-length note), "text" (Log-tab line)
    std::uint64_t count = 0;
};

struct CounterRow {
    std::int32_t key = 0;
    std::string name;   // captured.xml counter type
    std::string title;  // events.xml "Category: Title Name" when known
    std::string units;
    std::string counter_class;  // events.xml class ("delta", "absolute", ...); "" unknown
    double multiplier = 1.0;
    std::uint64_t samples = 0;
    double min = 0, max = 0;      // values times the multiplier
    std::optional<double> mean;   // absent when the reader kept no sum (Perf framing)
    std::optional<double> total;  // delta and incident counters: the sum
};

struct Report {
    std::string capture;                 // the path given
    std::string framing;                 // "gator" or "perf"
    std::int64_t duration_ns = 0;        // first to last timestamp seen
    std::uint64_t samples = 0;           // CPU samples in the capture (all processes)
    std::vector<ThreadRow> threads;      // by cpu_ns then samples, descending
    std::vector<ProcessRow> processes;   // likewise
    std::vector<FunctionRow> functions;  // by self_samples, descending
    std::vector<StackRow> stacks;        // by samples, descending
    std::vector<SpanRow> spans;          // by total_ns, descending
    std::vector<InstantRow> instants;    // by count, descending
    std::vector<CounterRow> counters;    // by key
    Losses losses;                       // what the report could not show (analysis_statistics.hpp)
    std::vector<std::string> notes;      // what this capture cannot say, and why
};

}  // namespace apcgate::daemon::analysis
