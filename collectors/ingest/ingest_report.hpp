// What an ingester read, mapped and skipped, per record kind, and the problems it met. Record
// kinds are each ingester's own names (declared once in its reader); problems keep their input
// offset and kind. Data decoded before a problem is always kept: a problem ends or skips, it
// never discards. What is no record kind (a producer's quirk met, calls a mapping could not
// show) is a statistic of the format's own table, carried here beside the input's totals.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/ingest/ingest_statistics.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ingest {

struct RecordStats {
    std::uint64_t read = 0;     // records of this kind decoded
    std::uint64_t mapped = 0;   // turned into model events
    std::uint64_t skipped = 0;  // decoded but not mapped (unsupported, orphaned, filtered)
    std::uint64_t bad = 0;      // malformed: reported and skipped
};

class IngestReport {
  public:
    static constexpr std::size_t kMaxKeptProblems = 100;

    IngestReport(std::string format, std::string input)
        : format_(std::move(format)), input_(std::move(input)) {}

    void read(std::string_view kind, std::uint64_t n = 1) { stats(kind).read += n; }
    void mapped(std::string_view kind, std::uint64_t n = 1) { stats(kind).mapped += n; }
    void skipped(std::string_view kind, std::uint64_t n = 1) { stats(kind).skipped += n; }
    // A malformed record that was skipped, or a field read wrong; reading went on. The input
    // was read wrong: `convert` exits 3 (see clean()).
    void bad_record(Error e);
    // The problem that ended reading early (truncation, corruption with no way to resync).
    void stopped(Error e);
    // The input was cut short while it was being read (a file rewritten in place; see
    // wire::MappedFile::cut_at()): the reason reading stopped, even when the reader stopped first
    // on what it found past the cut, which was not the input's.
    void cut_short(Error e);
    // Something the user should know about how the input was read that is no fault of it (a
    // stripped --binary, a producer's known quirk): printed and in --json, no effect on the exit
    // code.
    void note(std::string text) { notes_.push_back(std::move(text)); }
    // A format's own statistics (its table: what its mapping could not show, a producer's
    // quirk it met), added to what was added before for the same statistic. Printed after the
    // totals wherever the input's statistics are; adding a table with zero counts shows it whole.
    void add_statistics(std::span<const model::StatisticValue> values);
    template <typename Id, const auto& kSpecs>
    void add_statistics(const model::Statistics<Id, kSpecs>& counts) {
        add_statistics(counts.values());
    }

    [[nodiscard]] const std::string& format() const { return format_; }
    [[nodiscard]] const std::string& input() const { return input_; }
    [[nodiscard]] const std::map<std::string, RecordStats, std::less<>>& kinds() const {
        return kinds_;
    }
    [[nodiscard]] const std::vector<Error>& problems() const { return problems_; }
    [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
    [[nodiscard]] std::uint64_t problem_count() const { return problem_count_; }
    [[nodiscard]] const std::optional<Error>& stop_reason() const { return stop_; }
    // Where the stop reason is in problems() (a copy of it is kept there unless the list was
    // full by then): callers that list problems and the stop apart skip it by its place, not by
    // comparing texts.
    [[nodiscard]] std::optional<std::size_t> stop_index() const { return stop_index_; }
    // True when the whole input was read (problems may still have been skipped).
    [[nodiscard]] bool complete() const { return !stop_.has_value(); }
    // True when the whole input was read and nothing in it was wrong: no bad record, no stop.
    // Only such an input converts with exit status 0; notes do not count.
    [[nodiscard]] bool clean() const { return problem_count_ == 0; }
    // The totals over all record kinds, and what reading left unread.
    [[nodiscard]] IngestStatistics statistics() const;
    // The format's own statistics, in the order they were first added.
    [[nodiscard]] const std::vector<model::StatisticValue>& format_statistics() const {
        return format_statistics_;
    }
    // One of the format's statistics (0 when never added).
    [[nodiscard]] std::uint64_t statistic(const model::StatisticSpec& spec) const;
    // What the printers print: the totals, then the format's own statistics.
    [[nodiscard]] std::vector<model::StatisticValue> statistic_values() const;

    std::uint64_t bytes_total = 0;  // input size, for progress and throughput
    std::uint64_t bytes_done = 0;   // consumed so far

  private:
    RecordStats& stats(std::string_view kind);

    std::string format_;
    std::string input_;
    std::map<std::string, RecordStats, std::less<>> kinds_;
    std::vector<Error> problems_;  // the first kMaxKeptProblems
    std::vector<std::string> notes_;
    std::vector<model::StatisticValue> format_statistics_;
    std::uint64_t problem_count_ = 0;
    std::optional<Error> stop_;
    std::optional<std::size_t> stop_index_;
};

}  // namespace apcgate::collectors::ingest
