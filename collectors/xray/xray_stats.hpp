// The record kinds this ingester counts, declared once. Errors carry the same names in their
// `record` field, so `--json` shows read/mapped/skipped/bad per kind under one spelling. What is
// no record kind (a short buffer, a call without its exit) is a statistic of the XRay table
// (xray_statistics.hpp), counted here beside the kinds. The hot loops count into plain arrays;
// flush() moves the counts into the IngestReport once per poll, because a map lookup per 8-byte
// record would cost more than decoding it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/xray_statistics.hpp"

namespace apcgate::collectors::xray {

enum class Stat : std::uint8_t {
    FileHeader,
    BufferExtents,
    NewBuffer,
    EndOfBuffer,
    NewCpuId,
    TscWrap,
    WallClock,
    Pid,
    CallArgument,
    CustomEvent,
    TypedEvent,
    FunctionEnter,
    FunctionEnterArgs,
    FunctionExit,
    FunctionTailExit,
    Function,         // a function record whose action is none of the four above
    Metadata,         // a metadata record of a kind no version defines
    BasicArgPayload,  // basic mode: the argument record after an entry
    BasicRecord,      // basic mode: a record whose type is unknown
    Block,            // a thread's buffer (FDR) or run of records (basic mode)
    Count,
};

inline constexpr std::size_t kStatCount = static_cast<std::size_t>(Stat::Count);

// The kind's name as it appears in reports and in Error::record.
std::string_view stat_name(Stat s);

class Stats {
  public:
    void read(Stat s, std::uint64_t n = 1) { read_[index(s)] += n; }
    void mapped(Stat s, std::uint64_t n = 1) { mapped_[index(s)] += n; }
    void skipped(Stat s, std::uint64_t n = 1) { skipped_[index(s)] += n; }
    void count(XrayStat s, std::uint64_t n = 1) { statistics_[s] += n; }
    // One record read as `from` turned out to be a `to` (an entry followed by its arguments is
    // a function-enter-arg). The record must have been counted since the last flush.
    void reclassify_read(Stat from, Stat to) {
        if (read_[index(from)] == 0) return;
        --read_[index(from)];
        ++read_[index(to)];
    }

    [[nodiscard]] std::uint64_t read_count(Stat s) const { return read_[index(s)]; }
    [[nodiscard]] std::uint64_t mapped_count(Stat s) const { return mapped_[index(s)]; }
    [[nodiscard]] std::uint64_t skipped_count(Stat s) const { return skipped_[index(s)]; }
    [[nodiscard]] std::uint64_t statistic(XrayStat s) const { return statistics_[s]; }

    // Adds the counts gathered since the last flush to `report` and clears them.
    void flush(ingest::IngestReport& report);

  private:
    static std::size_t index(Stat s) { return static_cast<std::size_t>(s); }
    std::array<std::uint64_t, kStatCount> read_{};
    std::array<std::uint64_t, kStatCount> mapped_{};
    std::array<std::uint64_t, kStatCount> skipped_{};
    XrayStatistics statistics_;
};

}  // namespace apcgate::collectors::xray
