// Checks a Perf-type capture frame by frame and tallies what it holds. The rules, each reported
// with the offset of the offending frame, message or record:
//  - every frame decodes and its fields stay within it (frames.hpp);
//  - exactly one Summary, before any frame whose times are relative to its clocks (PERF_DATA,
//    Block Counter, PERF_AUX, PERF_SYNC, ONLINE/OFFLINE_CPU, COUNTERS). gatord sends its
//    shell-side PERF_ATTRS (PEA, FORMAT, COMM, build ids) before it, which is allowed;
//  - every PEA's attr sets PERF_SAMPLE_IDENTIFIER and sample_id_all (without them no record can
//    be tied to its event) and a key is given one attr only;
//  - every KEYS key has a PEA before it, and an id is given one key only;
//  - every PERF_DATA record's identifier maps through KEYS to a PEA, and the record parses to its
//    exact size with the layout that attr selects; records never cross a frame's end;
//  - Block Counter and COUNTERS keys (other than 0-2) are captured.xml keys.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "protocol/perf_framing/frames.hpp"
#include "protocol/perf_framing/perf_record.hpp"

namespace apcgate::perf_framing {

struct PerfViolation {
    std::uint64_t offset = 0;
    std::string text;
};

// Counter values seen for one key: READ-group members of samples, Block Counter or COUNTERS.
struct KeyValues {
    std::uint64_t values = 0;
    std::int64_t min = 0, max = 0, last = 0;
    void add(std::int64_t v);
};

struct PerfCaptureTally {
    std::uint64_t frames = 0;
    std::map<std::string, std::uint64_t> frames_by_type;
    std::map<std::string, std::uint64_t> attrs_messages;  // "PEA", ..., "empty frame"
    std::map<std::string, std::uint64_t> records;         // "SAMPLE", "FORK", ...
    std::map<std::int32_t, std::uint64_t> samples_by_key;
    std::uint64_t lost_records = 0;  // LOST and LOST_SAMPLES records
    std::uint64_t lost_events = 0;   // what they say the kernel dropped
    std::uint64_t packed_record_bytes = 0, raw_record_bytes = 0;
    std::optional<SummaryFrame> summary;
    std::map<std::int32_t, PerfAttr> attrs;     // key -> attr (PEA)
    std::map<std::uint64_t, std::int32_t> ids;  // perf event id -> key (KEYS)
    // tid -> comm: COMM messages, then the kernel's COMM and FORK records in time order (a new
    // task keeps its parent's name until it renames itself or execs).
    std::map<std::int32_t, std::string> threads;
    std::set<std::int32_t> online_cpus;
    std::map<std::int32_t, KeyValues> counter_values;    // captured.xml key -> values
    std::vector<std::string> tracepoint_formats;         // "name:" of each FORMAT
    std::optional<std::uint64_t> first_time, last_time;  // perf record times (absolute)
};

// One record as the checker saw it, for callers that want more than counts.
struct RecordView {
    std::uint64_t offset = 0;  // of the record's first packed word in the input
    std::int32_t cpu = 0;
    std::int32_t key = 0;
    const PerfAttr* attr = nullptr;
    const PerfRecord* record = nullptr;
};

class PerfCaptureChecker {
  public:
    // `captured_keys`: the keys captured.xml lists.
    explicit PerfCaptureChecker(std::set<std::int32_t> captured_keys,
                                std::function<void(const RecordView&)> on_record = {});
    // Sees every frame that decoded, before its records go to on_record.
    void on_frame(std::function<void(const DecodedPerfFrame&, std::size_t size)> f) {
        on_frame_ = std::move(f);
    }

    // One frame body (without the length prefix); `body_offset` is its offset in the input.
    void frame(std::span<const std::uint8_t> body, std::uint64_t body_offset);
    // Rules that need the whole capture; returns every violation found.
    std::vector<PerfViolation> finish();

    [[nodiscard]] const PerfCaptureTally& tally() const { return t_; }

  private:
    void violation(std::uint64_t offset, std::string text);
    void need_summary(std::uint64_t offset, const char* what);
    void attrs(const PerfAttrsFrame& f);
    void perf_data(const PerfDataFrame& f);
    void record(const PerfDataFrame& f, std::size_t first_word,
                std::span<const std::uint8_t> bytes);
    void counter_value(std::uint64_t offset, std::int32_t key, std::int64_t v, bool must_be_listed);

    // COMM and FORK records, replayed in time order by finish(): frames come one CPU at a time,
    // so a child's FORK may arrive before its parent's exec on another CPU.
    struct NameChange {
        std::uint64_t time = 0;
        std::int32_t tid = 0;
        std::optional<std::int32_t> parent_tid;  // FORK: the name comes from this task
        std::string comm;                        // COMM: the new name
    };
    std::vector<NameChange> name_changes_;
    std::set<std::int32_t> captured_keys_;
    std::function<void(const RecordView&)> on_record_;
    std::function<void(const DecodedPerfFrame&, std::size_t)> on_frame_;
    PerfCaptureTally t_;
    std::uint64_t summaries_ = 0;
    std::vector<PerfViolation> violations_;
    std::size_t max_violations_ = 100;  // a broken capture repeats one fault; keep the first
    std::uint64_t suppressed_ = 0;
};

}  // namespace apcgate::perf_framing
