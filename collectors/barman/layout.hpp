// Where everything is in a Barman data store, derived from its magic (pointer size, byte order)
// and the compile-time constants the agent stored in the header (barman-v2-format.txt, "Compile
// Time Constants", "Header Record", "Record Types"). Nothing here is a fixed layout: the agent's
// header is a C struct whose size depends on these constants and on the target ABI, so every
// offset and every record size is computed from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::barman {

// bm_protocol_config_values (24 bytes at header offset 36).
struct ConfigConstants {
    std::uint32_t max_cores = 0;                // BM_CONFIG_MAX_CORES
    std::uint32_t max_task_infos = 0;           // BM_CONFIG_MAX_TASK_INFOS
    std::uint32_t max_mmap_layouts = 0;         // BM_CONFIG_MAX_MMAP_LAYOUTS
    std::uint32_t max_pmu_counters = 0;         // BM_MAX_PMU_COUNTERS
    std::uint32_t max_string_table_length = 0;  // BM_PROTOCOL_STRING_TABLE_LENGTH
    std::uint32_t num_custom_counters = 0;      // BM_NUM_CUSTOM_COUNTERS (series)
};

// Upper bounds on the constants. Real agents use a handful of cores, 32 PMU counters and a 1 KiB
// string table; these limits only keep a hostile header from sizing huge tables (the header
// must also fit in the file, which is checked separately).
struct ConstantLimits {
    static constexpr std::uint32_t kMaxCores = 4096;
    static constexpr std::uint32_t kMaxPmuCounters = 256;
    static constexpr std::uint32_t kMaxTaskInfos = 1u << 16;
    static constexpr std::uint32_t kMaxMmapLayouts = 1u << 16;
    static constexpr std::uint32_t kMaxStringTable = 16u << 20;
    static constexpr std::uint32_t kMaxCustomCounters = 1u << 16;
};

// Target ABI facts the magic gives: "BARMAN32"/"BARMAN64" written as a native-endian u64.
struct Abi {
    wire::Endian endian = wire::Endian::Little;
    unsigned pointer_size = 8;  // bm_uintptr, bm_size_t, the block length prefix
};

// A bm_uintptr from bytes the caller has bounds-checked (the magic allows only 4 and 8).
inline std::uint64_t load_pointer(const std::uint8_t* p, const Abi& abi) {
    return abi.pointer_size == 8 ? wire::load_u64(p, abi.endian) : wire::load_u32(p, abi.endian);
}

// Offsets of the header's sections, in file bytes from the start of the header.
struct HeaderPlan {
    static constexpr std::uint64_t kFixedSize = 92;    // magic .. clock_info
    static constexpr std::uint64_t kStringTable = 92;  // u32 used length, then the table

    std::uint64_t pmu_settings = 0;  // per_core_pmu_settings[max_cores]
    std::uint64_t pmu_entry_size = 0;
    std::optional<std::uint64_t> task_count;  // num_task_entries (when max_task_infos > 0)
    std::uint64_t task_infos = 0;
    static constexpr std::uint64_t kTaskInfoSize = 16;
    std::optional<std::uint64_t> mmap_count;  // num_mmap_layout_entries (max_mmap_layouts > 0)
    std::uint64_t mmap_layouts = 0;
    std::uint64_t mmap_entry_size = 0;
    std::optional<std::uint64_t> chart_count;  // num_custom_charts (num_custom_counters > 0)
    std::uint64_t charts = 0;                  // set by place_charts()
    static constexpr std::uint64_t kChartSize = 7;
    std::uint64_t series = 0;
    static constexpr std::uint64_t kSeriesSize = 31;
    std::uint64_t sections_end = 0;  // first byte after the last section before data_store
};

// Lays out the sections up to num_custom_charts; sections_end assumes no custom charts.
HeaderPlan plan_header(const Abi& abi, const ConfigConstants& c);
// Places custom_charts[charts] and custom_charts_series[num_custom_counters].
void place_charts(HeaderPlan& plan, const ConfigConstants& c, std::uint32_t charts);

// bm_datastore_header_data: four u64 and a pointer. The struct is 8-byte aligned where the ABI
// aligns u64 to 8 (AArch64, AArch32 AAPCS) and 4-byte aligned where it aligns u64 to 4 (i386).
std::uint64_t data_store_size(const Abi& abi);
// The data_store_parameters offset that agrees with header_length (sizeof the header, maybe
// rounded up to 8): the 8-aligned place if it fits, else the 4-aligned one, else unaligned.
std::optional<std::uint64_t> place_data_store(const Abi& abi, std::uint64_t sections_end,
                                              std::uint64_t header_length);

// Which optional fields the record structs have ("Record Types"), and the sizes of their
// fixed parts; the parser reads the fields in order, the sizes state the spec's formulas.
struct RecordLayout {
    Abi abi;
    bool task_ids = false;         // BM_CONFIG_MAX_TASK_INFOS > 0: records carry a task id
    bool custom_counters = false;  // BM_NUM_CUSTOM_COUNTERS > 0: samples carry custom values
    static constexpr std::size_t kHeaderSize = 16;       // record_type, core, timestamp
    static constexpr std::size_t kCustomValueSize = 12;  // packed { u32 id; u64 value; }

    // Bytes of a sample before its PMU values (the PC included when `pc`).
    [[nodiscard]] std::size_t sample_fixed(bool pc) const {
        return kHeaderSize + (task_ids ? 4 : 0) + (custom_counters ? 4 : 0) +
               (pc ? abi.pointer_size : 0);
    }
    [[nodiscard]] std::size_t annotation_fixed() const {
        return kHeaderSize + (task_ids ? 4 : 0) + abi.pointer_size + 13;
    }
};

RecordLayout record_layout(const Abi& abi, const ConfigConstants& c);

}  // namespace apcgate::collectors::barman
