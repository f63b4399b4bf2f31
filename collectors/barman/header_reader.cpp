// The header after its fixed part (barman-v2-format.txt, "Header Record", "Header Member
// Structs"). Offsets come from HeaderPlan (layout.cpp), i.e. from the stored constants:
//
//   92                u32 string_table_length; char string_table[N]     (padded to 4)
//   pmu_settings      max_cores x packed { u64 configuration_timestamp; u32 midr;
//                         uintptr mpidr; u32 cluster_id; u32 num_counters; u32 types[P]; }
//   [task_count]      u32 num_task_entries; max_task_infos x packed
//                         { u64 timestamp; u32 task_id; u32 task_name_ptr; }
//   [mmap_count]      u32 num_mmap_layout_entries; max_mmap_layouts x packed
//                         { [u64 timestamp; u32 task_id;] uintptr base, length, image_offset;
//                           u32 image_ptr; }
//   [chart_count]     u32 num_custom_charts; num_custom_charts x packed
//                         { u32 name_ptr; u8 series_composition, rendering_type, flags; }
//                     num_custom_counters x packed { u32 chart_index, name_ptr, units_ptr,
//                         description_ptr, colour; f64 multiplier; u8 class, display, flags; }
//   data_store        aligned (see place_data_store): u64 buffer_length, write_offset,
//                         read_offset, total_written; uintptr base_pointer
//   records start at (header_length + 7) & ~7
//
// Sections in [brackets] exist only when their maximum is non-zero. Strings are offsets into
// the string table; a bad one is reported and read as "".
#include <bit>

#include "collectors/barman/header.hpp"
#include "collectors/barman/record_kinds.hpp"

namespace apcgate::collectors::barman {
namespace {

class StringTable {
  public:
    StringTable(std::span<const std::uint8_t> used, std::vector<Error>& problems)
        : used_(used), problems_(problems) {}

    // The NUL-terminated string at `ptr`, or "" (reported) when `ptr` is outside the table.
    std::string at(std::uint32_t ptr, std::uint64_t field_offset, const char* field) {
        if (ptr >= used_.size()) {
            if (!(used_.empty() && ptr == 0))
                problems_.push_back(header_error(ErrorKind::Malformed,
                                                 "string pointer " + std::to_string(ptr) +
                                                     " is past the string table's " +
                                                     std::to_string(used_.size()) + " used bytes",
                                                 field_offset, field));
            return {};
        }
        std::string s;
        for (std::size_t i = ptr; i < used_.size() && used_[i] != 0; ++i)
            s.push_back(static_cast<char>(used_[i]));
        return s;
    }

  private:
    std::span<const std::uint8_t> used_;
    std::vector<Error>& problems_;
};

// Clamps a stored entry count to its array's size, reporting the excess.
std::uint32_t clamp_count(std::uint32_t n, std::uint32_t max, std::uint64_t offset,
                          const char* field, std::vector<Error>& problems) {
    if (n <= max) return n;
    problems.push_back(header_error(ErrorKind::Malformed,
                                    std::string(field) + " " + std::to_string(n) +
                                        " exceeds its array of " + std::to_string(max) +
                                        "; reading " + std::to_string(max),
                                    offset, field));
    return max;
}

void read_sections(wire::ByteReader& r, Header& h, StringTable& strings) {
    const ConfigConstants& c = h.constants();
    const unsigned ptr = h.preamble.abi.pointer_size;
    const HeaderPlan& plan = h.plan;
    h.target_name = strings.at(h.preamble.target_name_ptr, 20, "target_name_ptr");
    for (std::uint32_t i = 0; i < c.max_cores; ++i) {
        r.seek(plan.pmu_settings + plan.pmu_entry_size * i);
        PmuSettings s;
        s.configuration_timestamp = r.u64("configuration_timestamp");
        s.midr = r.u32("midr");
        s.mpidr = r.uint(ptr, "mpidr");
        s.cluster_id = r.u32("cluster_id");
        const std::uint64_t count_at = r.offset();
        const std::uint32_t n = clamp_count(r.u32("num_counters"), c.max_pmu_counters, count_at,
                                            "num_counters", h.problems);
        for (std::uint32_t k = 0; k < n; ++k) s.counter_types.push_back(r.u32("counter_types"));
        h.cores.push_back(std::move(s));
    }
    if (plan.task_count) {
        r.seek(*plan.task_count);
        const std::uint32_t n = clamp_count(r.u32("num_task_entries"), c.max_task_infos,
                                            *plan.task_count, "num_task_entries", h.problems);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.seek(plan.task_infos + HeaderPlan::kTaskInfoSize * i);
            TaskInfo t;
            t.timestamp = r.u64("timestamp");
            t.task_id = r.u32("task_id");
            const std::uint64_t at = r.offset();
            t.name = strings.at(r.u32("task_name_ptr"), at, "task_name_ptr");
            h.tasks.push_back(std::move(t));
        }
    }
    if (plan.mmap_count) {
        r.seek(*plan.mmap_count);
        const std::uint32_t n =
            clamp_count(r.u32("num_mmap_layout_entries"), c.max_mmap_layouts, *plan.mmap_count,
                        "num_mmap_layout_entries", h.problems);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.seek(plan.mmap_layouts + plan.mmap_entry_size * i);
            MmapLayout m;
            if (c.max_task_infos > 0) {
                m.timestamp = r.u64("timestamp");
                m.task_id = r.u32("task_id");
            }
            m.base_address = r.uint(ptr, "base_address");
            m.length = r.uint(ptr, "length");
            m.image_offset = r.uint(ptr, "image_offset");
            const std::uint64_t at = r.offset();
            m.image = strings.at(r.u32("image_ptr"), at, "image_ptr");
            h.mmaps.push_back(std::move(m));
        }
    }
}

void read_custom_charts(wire::ByteReader& r, Header& h, StringTable& strings,
                        std::uint32_t charts) {
    const HeaderPlan& plan = h.plan;
    r.seek(plan.charts);
    for (std::uint32_t i = 0; i < charts; ++i) {
        CustomChart chart;
        const std::uint64_t at = r.offset();
        chart.name = strings.at(r.u32("name_ptr"), at, "chart name_ptr");
        chart.series_composition = r.u8("series_composition");
        chart.rendering_type = r.u8("rendering_type");
        chart.flags = r.u8("boolean_flags");
        h.charts.push_back(std::move(chart));
    }
    for (std::uint32_t i = 0; i < h.constants().num_custom_counters; ++i) {
        CustomSeries s;
        const std::uint64_t at = r.offset();
        s.chart_index = r.u32("chart_index");
        if (s.chart_index >= charts) {
            h.problems.push_back(header_error(ErrorKind::Malformed,
                                              "series " + std::to_string(i) + " names chart " +
                                                  std::to_string(s.chart_index) + " of " +
                                                  std::to_string(charts),
                                              at, "chart_index"));
            s.chart_index = 0;
        }
        s.name = strings.at(r.u32("name_ptr"), at + 4, "series name_ptr");
        s.units = strings.at(r.u32("units_ptr"), at + 8, "units_ptr");
        s.description = strings.at(r.u32("description_ptr"), at + 12, "description_ptr");
        s.colour = r.u32("colour");
        s.multiplier = std::bit_cast<double>(r.u64("multiplier"));
        s.cls = r.u8("class");
        s.display = r.u8("display");
        s.flags = r.u8("boolean_flags");
        h.series.push_back(std::move(s));
    }
}

// The header's size against what its stored constants need, the file and the bytes given.
Status check_header_size(const Preamble& p, std::uint64_t file_size, std::size_t given) {
    const ConfigConstants& c = p.constants;
    const std::uint64_t minimum = minimum_header_size(p);
    if (minimum > file_size)
        return header_error(ErrorKind::Truncated,
                            "the stored constants (max_cores " + std::to_string(c.max_cores) +
                                ", max_task_infos " + std::to_string(c.max_task_infos) +
                                ", max_mmap_layout " + std::to_string(c.max_mmap_layouts) +
                                ", max_pmu_counters " + std::to_string(c.max_pmu_counters) +
                                ", string table " + std::to_string(c.max_string_table_length) +
                                ", custom counters " + std::to_string(c.num_custom_counters) +
                                ") make the header at least " + std::to_string(minimum) +
                                " bytes, more than the file's " + std::to_string(file_size),
                            36, "config_constants");
    if (p.header_length > file_size)
        return header_error(ErrorKind::Truncated,
                            "header_length " + std::to_string(p.header_length) +
                                " is more than the file's " + std::to_string(file_size) + " bytes",
                            12, "header_length");
    if (minimum > p.header_length)
        return header_error(ErrorKind::Malformed,
                            "header_length " + std::to_string(p.header_length) +
                                " is less than the " + std::to_string(minimum) +
                                " bytes the stored constants need",
                            12, "header_length");
    if (given < p.header_length)
        return header_error(ErrorKind::Truncated,
                            "only " + std::to_string(given) + " of the header's " +
                                std::to_string(p.header_length) + " bytes were given",
                            given, "header_length");
    return {};
}

}  // namespace

Result<Header> read_header(std::span<const std::uint8_t> bytes, std::uint64_t file_size) {
    auto pre = read_preamble(bytes);
    if (!pre) return std::move(pre).take_error();
    Header h;
    h.preamble = *pre;
    const Preamble& p = h.preamble;
    const ConfigConstants& c = p.constants;
    if (Status size = check_header_size(p, file_size, bytes.size()); !size)
        return std::move(size).take_error();

    wire::ByteReader r(bytes.first(p.header_length), p.abi.endian);
    r.set_record(kind::kHeader);
    h.plan = plan_header(p.abi, c);
    r.seek(HeaderPlan::kStringTable);
    std::uint32_t used = r.u32("string_table_length");
    const auto table = r.bytes(c.max_string_table_length, "string_table");
    used = clamp_count(used, c.max_string_table_length, HeaderPlan::kStringTable,
                       "string_table_length", h.problems);
    StringTable strings(table.first(std::min<std::size_t>(used, table.size())), h.problems);
    read_sections(r, h, strings);
    if (h.plan.chart_count) {
        r.seek(*h.plan.chart_count);
        const std::uint32_t charts = r.u32("num_custom_charts");
        if (charts == 0 || charts > c.num_custom_counters)
            return header_error(ErrorKind::Malformed,
                                "num_custom_charts " + std::to_string(charts) +
                                    " must be between 1 and num_custom_counters (" +
                                    std::to_string(c.num_custom_counters) + ")",
                                *h.plan.chart_count, "num_custom_charts");
        place_charts(h.plan, c, charts);
        if (h.plan.sections_end + data_store_size(p.abi) > p.header_length)
            return header_error(ErrorKind::Malformed,
                                std::to_string(charts) + " custom charts make the header " +
                                    std::to_string(h.plan.sections_end + data_store_size(p.abi)) +
                                    " bytes, more than header_length " +
                                    std::to_string(p.header_length),
                                *h.plan.chart_count, "num_custom_charts");
        read_custom_charts(r, h, strings, charts);
    }
    const auto ds = place_data_store(p.abi, h.plan.sections_end, p.header_length);
    if (!ds)
        return header_error(
            ErrorKind::Malformed,
            "header_length " + std::to_string(p.header_length) +
                " does not match the header the constants describe (its sections end at " +
                std::to_string(h.plan.sections_end) + ", then " +
                std::to_string(data_store_size(p.abi)) + " bytes of data store parameters)",
            12, "header_length");
    h.data_store_offset = *ds;
    r.seek(*ds);
    h.store.type = static_cast<StoreType>(p.data_store_type);
    h.store.buffer_length = r.u64("buffer_length");
    h.store.write_offset = r.u64("write_offset");
    h.store.read_offset = r.u64("read_offset");
    h.store.total_written = r.u64("total_written");
    (void)r.uint(p.abi.pointer_size, "base_pointer");
    h.store.record_area = (std::uint64_t{p.header_length} + 7) & ~std::uint64_t{7};
    if (!r.ok()) return r.take_error();
    return h;
}

}  // namespace apcgate::collectors::barman
