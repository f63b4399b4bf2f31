// Header and record layout from the stored constants. The byte-level layout is drawn in
// header_reader.cpp; this file only does the arithmetic.
#include "collectors/barman/layout.hpp"

namespace apcgate::collectors::barman {
namespace {

constexpr std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
    return (v + a - 1) / a * a;
}

}  // namespace

HeaderPlan plan_header(const Abi& abi, const ConfigConstants& c) {
    HeaderPlan p;
    // struct bm_protocol_header_string_table { u32 length; char table[N]; } is not packed: its
    // size rounds up to its u32 member's alignment.
    std::uint64_t at =
        HeaderPlan::kStringTable + align_up(4 + std::uint64_t{c.max_string_table_length}, 4);
    p.pmu_settings = at;
    // Packed: u64 timestamp, u32 midr, uintptr mpidr, u32 cluster, u32 count, u32 types[P].
    p.pmu_entry_size = 8 + 4 + abi.pointer_size + 4 + 4 + 4 * std::uint64_t{c.max_pmu_counters};
    at += p.pmu_entry_size * c.max_cores;
    if (c.max_task_infos > 0) {
        at = align_up(at, 4);  // the u32 count is a member of the unpacked header
        p.task_count = at;
        p.task_infos = at + 4;
        at = p.task_infos + HeaderPlan::kTaskInfoSize * c.max_task_infos;
    }
    if (c.max_mmap_layouts > 0) {
        at = align_up(at, 4);
        p.mmap_count = at;
        p.mmap_layouts = at + 4;
        // Packed: [u64 timestamp, u32 task_id,] uintptr base, length, offset, u32 image_ptr.
        p.mmap_entry_size = (c.max_task_infos > 0 ? 12 : 0) + 3 * abi.pointer_size + 4;
        at = p.mmap_layouts + p.mmap_entry_size * c.max_mmap_layouts;
    }
    if (c.num_custom_counters > 0) {
        at = align_up(at, 4);
        p.chart_count = at;
        at += 4;
        p.charts = at;
        p.series = at;
    }
    p.sections_end = at;
    return p;
}

void place_charts(HeaderPlan& plan, const ConfigConstants& c, std::uint32_t charts) {
    if (!plan.chart_count) return;
    plan.charts = *plan.chart_count + 4;
    plan.series = plan.charts + HeaderPlan::kChartSize * charts;
    plan.sections_end = plan.series + HeaderPlan::kSeriesSize * c.num_custom_counters;
}

std::uint64_t data_store_size(const Abi& abi) {
    return 4 * 8 + abi.pointer_size;
}

std::optional<std::uint64_t> place_data_store(const Abi& abi, std::uint64_t sections_end,
                                              std::uint64_t header_length) {
    const std::uint64_t size = data_store_size(abi);
    for (const std::uint64_t alignment : {8, 4, 1}) {
        const std::uint64_t at = align_up(sections_end, alignment);
        // sizeof(header) is the data store's end rounded up to the struct alignment (<= 8), and
        // header_length may round it up to 8 again: a true placement ends at most 7 bytes short.
        if (at + size <= header_length && header_length - (at + size) < 8) return at;
    }
    return std::nullopt;
}

RecordLayout record_layout(const Abi& abi, const ConfigConstants& c) {
    RecordLayout r;
    r.abi = abi;
    r.task_ids = c.max_task_infos > 0;
    r.custom_counters = c.num_custom_counters > 0;
    return r;
}

}  // namespace apcgate::collectors::barman
