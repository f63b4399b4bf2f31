// The records of a Barman data store as types (barman-v2-format.txt, "Record Types"), and the
// parser that turns one block's bytes into one of them. The parser knows the layout (from the
// header's constants) and the per-core PMU counter counts; it maps nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "collectors/barman/header.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::barman {

// Every record starts with: u32 record_type, u32 core, u64 timestamp (ticks).
struct RecordHeader {
    std::uint32_t type = 0;
    std::uint32_t core = 0;
    std::uint64_t timestamp = 0;  // ~0: "use the last timestamp"
};

struct CustomValue {
    std::uint32_t id = 0;  // index into the header's custom chart series
    std::uint64_t value = 0;
};

// Types 1 and 2: one reading of a core's PMU counters (and sampled custom counters).
struct SampleRecord {
    RecordHeader header;
    std::optional<std::uint32_t> task;
    std::optional<std::uint64_t> pc;  // type 2 only
    std::vector<std::uint64_t> pmu;   // one per per_core_pmu_settings[core].counter_types
    std::vector<CustomValue> custom;
};

// Type 3: the scheduler switched to `task`; reason 0 preempted, 1 blocked.
struct TaskSwitchRecord {
    RecordHeader header;
    std::uint32_t task = 0;
    std::uint8_t reason = 0;
};

// Type 4 (with a task id when the agent keeps task infos) and type 8 (never a task id).
struct CustomCounterRecord {
    RecordHeader header;
    std::optional<std::uint32_t> task;
    std::uint32_t counter = 0;
    std::uint64_t value = 0;
};

// Type 5: type 0 string on a channel, 1 bookmark, 2 names a channel, 3 names a group.
struct AnnotationRecord {
    RecordHeader header;
    std::optional<std::uint32_t> task;
    std::uint32_t channel = 0;
    std::uint32_t group = 0;
    std::uint32_t colour = 0;  // 0: none (cyclic); else 0x??RRGGBB
    std::uint8_t annotation_type = 0;
    std::string text;  // up to the first NUL
};

// Type 6: entered (true) or left a WFI/WFE halt.
struct HaltRecord {
    RecordHeader header;
    bool entered = false;
};

// Type 7: a PC sample with no task id and no counters.
struct PcSampleRecord {
    RecordHeader header;
    std::uint64_t pc = 0;
};

// Type 9: a warning for Streamline; its body's layout is not published.
struct WarningRecord {
    RecordHeader header;
    std::size_t body_bytes = 0;
};

// A parsed record. The sample is the parser's own (reused to avoid allocating per record):
// it stays valid until the next parse().
using RecordRef = std::variant<const SampleRecord*, TaskSwitchRecord, CustomCounterRecord,
                               AnnotationRecord, HaltRecord, PcSampleRecord, WarningRecord>;

class RecordParser {
  public:
    explicit RecordParser(const Header& header);

    // Parses one record block's data; `file_offset` is that of data[0]. Errors name the
    // offset, the record kind and the field.
    Result<RecordRef> parse(std::span<const std::uint8_t> data, std::uint64_t file_offset);
    // The record when it is a whole, valid sample (types 1 and 2, most of a store's records),
    // read with one bounds check; nullptr for anything else, for parse() to read and report.
    // For the record loop: a sample needs no variant, nor a Result around it. Valid until the
    // next call of this or parse().
    const SampleRecord* parse_sample(std::span<const std::uint8_t> data);
    // The same for a custom counter value (types 4 and 8, as many as samples in a store that
    // charts its own counters): the record when it is whole and valid, else nullptr.
    const CustomCounterRecord* parse_custom_value(std::span<const std::uint8_t> data);

  private:
    Result<RecordRef> parse_body(wire::ByteReader& r, const RecordHeader& header);
    // The common records whole and valid, read with one bounds check; anything else (a short
    // block, a bad count or id) is left to the checked reader, which names the problem.
    std::optional<RecordRef> parse_fast(std::span<const std::uint8_t> data);

    RecordLayout layout_;
    std::vector<std::uint32_t> counters_per_core_;  // 0 for cores without PMU settings
    std::vector<bool> configured_;
    std::uint32_t series_ = 0;
    SampleRecord sample_;
    CustomCounterRecord custom_;
};

}  // namespace apcgate::collectors::barman
