// The header's fixed part (barman-v2-format.txt, "Magic Bytes", "Header Record" offsets 0-91,
// "Definition of struct bm_protocol_config_values" and "... bm_protocol_clock_info"):
//
//   off  size  field                      (all integers in the target's byte order)
//     0     8  magic_bytes                "BARMAN32"/"BARMAN64" stored as a native u64, so a
//                                         little-endian target writes "23NAMRAB"/"46NAMRAB"
//     8     4  protocol_version           1, 2 or 3 (Arm's agent writes 3)
//    12     4  header_length              sizeof(struct bm_protocol_header), maybe rounded to 8
//    16     4  data_store_type            1 linear, 2 circular
//    20     4  target_name_ptr            string table offset
//    24     8  last_timestamp             ticks
//    32     4  timer_sample_rate          Hz, 0 = no timer sampling
//    36    24  config_constants           max_cores, max_task_infos, max_mmap_layout,
//                                         max_pmu_counters, max_string_table_length,
//                                         num_custom_counters (u32 each)
//    60    32  clock_info                 timestamp_base, multiplier, divisor, unix_base_ns
#include <cstdio>
#include <limits>

#include "collectors/barman/header.hpp"
#include "collectors/barman/record_kinds.hpp"

namespace apcgate::collectors::barman {
namespace {

constexpr std::uint8_t kMagicBe32[8] = {'B', 'A', 'R', 'M', 'A', 'N', '3', '2'};
constexpr std::uint8_t kMagicBe64[8] = {'B', 'A', 'R', 'M', 'A', 'N', '6', '4'};

bool matches(std::span<const std::uint8_t> head, const std::uint8_t (&magic)[8], bool reversed) {
    for (std::size_t i = 0; i < 8; ++i)
        if (head[i] != magic[reversed ? 7 - i : i]) return false;
    return true;
}

std::optional<Abi> abi_of(std::span<const std::uint8_t> head) {
    if (head.size() < 8) return std::nullopt;
    if (matches(head, kMagicBe32, false)) return Abi{wire::Endian::Big, 4};
    if (matches(head, kMagicBe64, false)) return Abi{wire::Endian::Big, 8};
    if (matches(head, kMagicBe32, true)) return Abi{wire::Endian::Little, 4};
    if (matches(head, kMagicBe64, true)) return Abi{wire::Endian::Little, 8};
    return std::nullopt;
}

// "42 41 52 4d 41 4e 33 33 ("BARMAN33")": the bytes that were seen, for the error message.
std::string describe_bytes(std::span<const std::uint8_t> head) {
    std::string hex, text;
    char b[4];
    for (std::size_t i = 0; i < head.size() && i < 8; ++i) {
        std::snprintf(b, sizeof b, "%02x", head[i]);
        hex += (i ? " " : "") + std::string(b);
        text += (head[i] >= 0x20 && head[i] < 0x7f) ? static_cast<char>(head[i]) : '.';
    }
    return hex + " (\"" + text + "\")";
}

}  // namespace

Error header_error(ErrorKind kind, std::string message, std::uint64_t offset, std::string field) {
    Error e = Error::at(kind, std::move(message));
    e.offset = offset;
    e.record = std::string(kind::kHeader);
    e.field = std::move(field);
    return e;
}

model::Nanos ClockInfo::to_ns(std::uint64_t ticks, const wire::InvariantDivider& by_divisor) const {
    __extension__ typedef unsigned __int128 u128;
    const bool before = ticks < base;
    const std::uint64_t diff = before ? base - ticks : ticks - base;
    const std::uint64_t div = divisor == 0 ? 1 : divisor;
    // Runs for every record: the 128-bit product and division only when the product needs them
    // (the narrower arithmetic gives the same quotient whenever the product fits 64 bits).
    u128 ns = 0;
    std::uint64_t product = 0;
    if (!__builtin_mul_overflow(diff, multiplier, &product))
        ns = by_divisor.divide(product);
    else
        ns = u128{diff} * multiplier / div;
    constexpr auto kMax = static_cast<u128>(std::numeric_limits<model::Nanos>::max());
    if (ns > kMax)
        return before ? std::numeric_limits<model::Nanos>::min()
                      : std::numeric_limits<model::Nanos>::max();
    return before ? -static_cast<model::Nanos>(ns) : static_cast<model::Nanos>(ns);
}

bool is_barman_magic(std::span<const std::uint8_t> head) {
    return abi_of(head).has_value();
}

Result<Preamble> read_preamble(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < 8)
        return header_error(
            ErrorKind::Truncated,
            "file too short for the 8 magic bytes (" + std::to_string(bytes.size()) + " bytes)", 0,
            "magic_bytes");
    const auto abi = abi_of(bytes);
    if (!abi)
        return header_error(ErrorKind::Malformed,
                            "unknown magic " + describe_bytes(bytes) +
                                ": expected \"BARMAN32\" or \"BARMAN64\" in either byte order",
                            0, "magic_bytes");
    Preamble p;
    p.abi = *abi;
    wire::ByteReader r(bytes.first(std::min<std::size_t>(bytes.size(), HeaderPlan::kFixedSize)),
                       abi->endian);
    r.set_record(kind::kHeader);
    r.skip(8, "magic_bytes");
    p.version = r.u32("protocol_version");
    p.header_length = r.u32("header_length");
    p.data_store_type = r.u32("data_store_type");
    p.target_name_ptr = r.u32("target_name_ptr");
    p.last_timestamp = r.u64("last_timestamp");
    p.timer_sample_rate = r.u32("timer_sample_rate");
    ConfigConstants& c = p.constants;
    c.max_cores = r.u32("max_cores");
    c.max_task_infos = r.u32("max_task_infos");
    c.max_mmap_layouts = r.u32("max_mmap_layout");
    c.max_pmu_counters = r.u32("max_pmu_counters");
    c.max_string_table_length = r.u32("max_string_table_length");
    c.num_custom_counters = r.u32("num_custom_counters");
    p.clock.base = r.u64("timestamp_base");
    p.clock.multiplier = r.u64("timestamp_multiplier");
    p.clock.divisor = r.u64("timestamp_divisor");
    p.clock.unix_base_ns = r.u64("unix_base_ns");
    if (!r.ok()) return r.take_error().while_("reading the fixed header");

    if (p.version < 1 || p.version > 3)
        return header_error(
            ErrorKind::Unsupported,
            "protocol version " + std::to_string(p.version) + " is not supported (1 to 3)", 8,
            "protocol_version");
    if (p.header_length < HeaderPlan::kFixedSize)
        return header_error(ErrorKind::Malformed,
                            "header_length " + std::to_string(p.header_length) +
                                " is shorter than the 92-byte fixed header",
                            12, "header_length");
    if (p.data_store_type != 1 && p.data_store_type != 2)
        return header_error(ErrorKind::Unsupported,
                            "data store type " + std::to_string(p.data_store_type) +
                                " has no records in memory (1 = linear, 2 = circular)",
                            16, "data_store_type");
    struct Limit {
        std::uint32_t value, max;
        const char* field;
        std::uint64_t offset;
    };
    for (const Limit& l :
         {Limit{c.max_cores, ConstantLimits::kMaxCores, "max_cores", 36},
          Limit{c.max_task_infos, ConstantLimits::kMaxTaskInfos, "max_task_infos", 40},
          Limit{c.max_mmap_layouts, ConstantLimits::kMaxMmapLayouts, "max_mmap_layout", 44},
          Limit{c.max_pmu_counters, ConstantLimits::kMaxPmuCounters, "max_pmu_counters", 48},
          Limit{c.max_string_table_length, ConstantLimits::kMaxStringTable,
                "max_string_table_length", 52},
          Limit{c.num_custom_counters, ConstantLimits::kMaxCustomCounters, "num_custom_counters",
                56}}) {
        if (l.value > l.max)
            return header_error(ErrorKind::Limit,
                                std::string(l.field) + " " + std::to_string(l.value) +
                                    " is implausible (limit " + std::to_string(l.max) + ")",
                                l.offset, l.field);
    }
    if (c.max_cores == 0)
        return header_error(ErrorKind::Malformed, "max_cores is 0", 36, "max_cores");
    if (p.clock.multiplier == 0 || p.clock.divisor == 0)
        return header_error(ErrorKind::Malformed, "clock multiplier and divisor must not be 0",
                            p.clock.multiplier == 0 ? 68 : 76,
                            p.clock.multiplier == 0 ? "timestamp_multiplier" : "timestamp_divisor");
    return p;
}

std::uint64_t minimum_header_size(const Preamble& p) {
    HeaderPlan plan = plan_header(p.abi, p.constants);
    place_charts(plan, p.constants, p.constants.num_custom_counters > 0 ? 1 : 0);
    return plan.sections_end + data_store_size(p.abi);
}

}  // namespace apcgate::collectors::barman
