// The Barman data store header (barman-v2-format.txt, "Header Record" and "Header Member
// Structs") as types, and its reader. The reader is pure: it gets the header's bytes and the
// file size, never a file.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collectors/barman/layout.hpp"
#include "protocol/model/event.hpp"
#include "protocol/wire/invariant_divider.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::barman {

// bm_protocol_clock_info: ns = (ticks - base) * multiplier / divisor.
struct ClockInfo {
    std::uint64_t base = 0;
    std::uint64_t multiplier = 1;
    std::uint64_t divisor = 1;
    std::uint64_t unix_base_ns = 0;  // wall-clock time of `base`, informational

    // Nanoseconds since `base` (negative before it), saturated to the Nanos range.
    [[nodiscard]] model::Nanos to_ns(std::uint64_t ticks) const { return to_ns(ticks, divider()); }
    // The same with the divisor made a multiplication once (divider()), for a caller that
    // converts every record's time.
    [[nodiscard]] model::Nanos to_ns(std::uint64_t ticks,
                                     const wire::InvariantDivider& by_divisor) const;
    [[nodiscard]] wire::InvariantDivider divider() const {
        return wire::InvariantDivider(divisor == 0 ? 1 : divisor);
    }
};

// a - b on the timeline, saturated (a clock may saturate to the ends of the Nanos range), and
// never before the capture's zero.
inline model::Nanos since(model::Nanos a, model::Nanos b) {
    model::Nanos d = 0;
    if (__builtin_sub_overflow(a, b, &d)) return a > b ? INT64_MAX : 0;
    return d > 0 ? d : 0;
}

// The fixed first 92 bytes: enough to learn the byte order and every size.
struct Preamble {
    Abi abi;
    std::uint32_t version = 0;
    std::uint32_t header_length = 0;
    std::uint32_t data_store_type = 0;
    std::uint32_t target_name_ptr = 0;
    std::uint64_t last_timestamp = 0;
    std::uint32_t timer_sample_rate = 0;
    ConfigConstants constants;
    ClockInfo clock;
};

// The magic's eight bytes in the four accepted forms.
bool is_barman_magic(std::span<const std::uint8_t> head);

struct PmuSettings {
    std::uint64_t configuration_timestamp = 0;
    std::uint32_t midr = 0;
    std::uint64_t mpidr = 0;
    std::uint32_t cluster_id = 0;
    std::vector<std::uint32_t> counter_types;  // num_counters entries
    // Unused cores are zero-filled; a core with a MIDR or counters was configured.
    [[nodiscard]] bool configured() const { return midr != 0 || !counter_types.empty(); }
};

struct TaskInfo {
    std::uint64_t timestamp = 0;
    std::uint32_t task_id = 0;
    std::string name;
};

struct MmapLayout {
    std::uint64_t timestamp = 0;
    std::optional<std::uint32_t> task_id;  // present when the agent keeps task infos
    std::uint64_t base_address = 0;
    std::uint64_t length = 0;
    std::uint64_t image_offset = 0;
    std::string image;
};

struct CustomChart {
    std::string name;
    std::uint8_t series_composition = 0;  // 1 stacked, 2 overlay, 3 log10
    std::uint8_t rendering_type = 0;      // 1 filled, 2 line, 3 bar
    std::uint8_t flags = 0;               // 1 avg selection, 2 avg cores, 4 percentage, 8 per cpu
};

struct CustomSeries {
    std::uint32_t chart_index = 0;
    std::string name, units, description;
    std::uint32_t colour = 0;  // 0x00RRGGBB, ~0u: none
    double multiplier = 1.0;
    std::uint8_t cls = 0;      // 1 delta, 2 incident, 3 absolute
    std::uint8_t display = 0;  // 1 accumulate, 2 average, 3 hertz, 4 maximum, 5 minimum
    std::uint8_t flags = 0;    // 1: sampled with the PMU (values arrive in sample records)
};

enum class StoreType : std::uint32_t { Linear = 1, Circular = 2 };

// bm_datastore_header_data, plus where the record area starts in the file.
struct DataStore {
    StoreType type = StoreType::Linear;
    std::uint64_t buffer_length = 0;
    std::uint64_t write_offset = 0;
    std::uint64_t read_offset = 0;
    std::uint64_t total_written = 0;
    std::uint64_t record_area = 0;  // file offset: (header_length + 7) & ~7
};

struct Header {
    Preamble preamble;
    HeaderPlan plan;
    std::uint64_t data_store_offset = 0;
    std::string target_name;
    std::vector<PmuSettings> cores;  // max_cores entries, configured or not
    std::vector<TaskInfo> tasks;
    std::vector<MmapLayout> mmaps;
    std::vector<CustomChart> charts;
    std::vector<CustomSeries> series;
    DataStore store;
    // Problems that did not stop the read (a bad string pointer, a count above its maximum):
    // the value was clamped or left empty.
    std::vector<Error> problems;

    [[nodiscard]] const ConfigConstants& constants() const { return preamble.constants; }
    [[nodiscard]] RecordLayout records() const {
        return record_layout(preamble.abi, preamble.constants);
    }
};

// Reads the preamble from the first bytes of the file (at least 92).
// An error in the header: at `offset`, naming the field (record kind "header").
Error header_error(ErrorKind kind, std::string message, std::uint64_t offset, std::string field);

Result<Preamble> read_preamble(std::span<const std::uint8_t> bytes);

// The fewest bytes a header with these constants can take (custom charts counted as one), for
// the "header larger than the file" check before reading it.
std::uint64_t minimum_header_size(const Preamble& p);

// Reads the whole header from `bytes` (the file's first min(file size, header_length) bytes).
// `file_size` is used to reject constants that make the header larger than the file.
Result<Header> read_header(std::span<const std::uint8_t> bytes, std::uint64_t file_size);

}  // namespace apcgate::collectors::barman
