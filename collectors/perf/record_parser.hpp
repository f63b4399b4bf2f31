// Turns one tokenized record into a typed PerfRecord (perf_records.hpp shows every layout). The
// layout of a SAMPLE and of a record's sample_id trailer depends on the sample_type of the event
// that wrote it; the LayoutTable maps event ids (PERF_EVENT_IOC_ID) to sample types, and the
// PERF_SAMPLE_IDENTIFIER every event sets says which event a record came from. Bounds come from
// the one ByteReader: a malformed record is an Error naming its stream offset, record kind and
// field. No I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "collectors/perf/perf_records.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::perf {

// sample_type bits (linux/perf_event.h enum perf_event_sample_format) the parser understands.
inline constexpr std::uint64_t kSampleIp = 1u << 0;
inline constexpr std::uint64_t kSampleTid = 1u << 1;
inline constexpr std::uint64_t kSampleTime = 1u << 2;
inline constexpr std::uint64_t kSampleAddr = 1u << 3;
inline constexpr std::uint64_t kSampleCallchain = 1u << 5;
inline constexpr std::uint64_t kSampleId = 1u << 6;
inline constexpr std::uint64_t kSampleCpu = 1u << 7;
inline constexpr std::uint64_t kSamplePeriod = 1u << 8;
inline constexpr std::uint64_t kSampleStreamId = 1u << 9;
inline constexpr std::uint64_t kSampleRaw = 1u << 10;
inline constexpr std::uint64_t kSampleIdentifier = 1u << 16;
inline constexpr std::uint64_t kSupportedSampleTypes =
    kSampleIp | kSampleTid | kSampleTime | kSampleAddr | kSampleCallchain | kSampleId | kSampleCpu |
    kSamplePeriod | kSampleStreamId | kSampleRaw | kSampleIdentifier;

// A callchain longer than this is taken as corruption (the kernel's limit is 127 + markers).
inline constexpr std::uint64_t kMaxCallchain = 4096;

class LayoutTable {
  public:
    // False (nothing added) unless sample_type has IDENTIFIER and only supported bits.
    bool add(std::uint64_t id, std::uint64_t sample_type);
    [[nodiscard]] const std::uint64_t* find(std::uint64_t id) const;
    [[nodiscard]] std::size_t size() const { return types_.size(); }

  private:
    std::unordered_map<std::uint64_t, std::uint64_t> types_;
};

class RecordParser {
  public:
    explicit RecordParser(const LayoutTable& layouts) : layouts_(layouts) {}

    // `input` names the stream in errors (e.g. "perf ring cpu 1").
    [[nodiscard]] Result<PerfRecord> parse(const RawRecord& rec, std::string_view input) const;

  private:
    const LayoutTable& layouts_;
};

}  // namespace apcgate::collectors::perf
