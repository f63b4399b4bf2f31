// One record from one block's data (barman-v2-format.txt, "Record Types"). Fields in [brackets]
// exist only when the header's constant says so (T: max_task_infos > 0, C: num_custom_counters
// > 0); P is sizeof(uintptr); all integers in the target's byte order; structs are packed.
//
//   header      u32 record_type, u32 core, u64 timestamp                              16 bytes
//   1 sample    header [u32 task_id] [u32 num_custom] u64 pmu[num_counters(core)]
//                 {u32 id, u64 value}[num_custom]
//   2 sample+pc header [u32 task_id] [u32 num_custom] uintptr pc u64 pmu[..] {..}[..]
//   3 switch    header u32 task_id u8 reason                                          21 bytes
//   4 custom    header [u32 task_id] u32 counter u64 value
//   5 annotate  header [u32 task_id] uintptr data_length u32 channel u32 group u32 colour
//                 u8 type u8 data[data_length]
//   6 halt      header u8 entered_halt                                                17 bytes
//   7 pc (v3)   header uintptr pc                       (layout inferred from the name: the
//   8 ctr (v3)  header u32 counter u64 value             published spec stops at type 6)
//   9 warning   header, then a body whose layout is not published: counted, not decoded
//
// A block may be longer than its record (the agent pads blocks to sizeof(uintptr)).
#include "collectors/barman/record_kinds.hpp"
#include "collectors/barman/records.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::barman {
namespace {

Result<RecordRef> failed(wire::ByteReader& r, std::string message, std::string_view field) {
    r.fail(std::move(message), field);
    return r.take_error();
}

// Samples and counter values are most of the records: their readers are inlined into
// parse_body, as a call per record would cost a good part of what reading its header does.

// Types 1 and 2 (2 adds the PC). The record is reused from block to block so that its value
// vectors keep their capacity.
[[gnu::always_inline]] inline Result<RecordRef> parse_checked_sample(
    wire::ByteReader& r, const RecordHeader& h, const RecordLayout& layout, bool configured,
    std::uint32_t pmu_values, SampleRecord& s) {
    s.header = h;
    s.task.reset();
    s.pc.reset();
    s.pmu.clear();
    s.custom.clear();
    if (layout.task_ids) s.task = r.u32("task_id");
    const std::uint32_t custom = layout.custom_counters ? r.u32("num_custom_counters") : 0;
    if (h.type == 2) s.pc = r.uint(layout.abi.pointer_size, "pc_sample");
    if (!r.ok()) return r.take_error();
    if (!configured)
        return failed(r,
                      "sample for core " + std::to_string(h.core) +
                          ", which has no PMU settings in the header",
                      "core");
    // Both counts come from the input: check they fit before looping over them.
    if (std::uint64_t{pmu_values} * 8 + std::uint64_t{custom} * RecordLayout::kCustomValueSize >
        r.remaining())
        return failed(r,
                      std::to_string(pmu_values) + " PMU values and " + std::to_string(custom) +
                          " custom values need more than the block's " +
                          std::to_string(r.remaining()) + " remaining bytes",
                      "pmu_counter_delta_value");
    for (std::uint32_t i = 0; i < pmu_values; ++i)
        s.pmu.push_back(r.u64("pmu_counter_delta_value"));
    for (std::uint32_t i = 0; i < custom; ++i) {
        CustomValue v;
        v.id = r.u32("custom_counter_values.id");
        v.value = r.u64("custom_counter_values.value");
        s.custom.push_back(v);
    }
    if (!r.ok()) return r.take_error();
    return RecordRef{&s};
}

// Types 4 (custom counter, with the task) and 8 (v3 counter, without).
[[gnu::always_inline]] inline Result<RecordRef> parse_custom_counter(wire::ByteReader& r,
                                                                     const RecordHeader& h,
                                                                     const RecordLayout& layout,
                                                                     std::uint32_t series) {
    CustomCounterRecord c;
    c.header = h;
    if (h.type == 4 && layout.task_ids) c.task = r.u32("task_id");
    c.counter = r.u32("counter");
    c.value = r.u64("value");
    if (!r.ok()) return r.take_error();
    if (c.counter >= series)
        return failed(r,
                      "custom counter " + std::to_string(c.counter) +
                          " is not one of the header's " + std::to_string(series) + " series",
                      "counter");
    return RecordRef{c};
}

Result<RecordRef> parse_annotation(wire::ByteReader& r, const RecordHeader& h,
                                   const RecordLayout& layout) {
    AnnotationRecord a;
    a.header = h;
    if (layout.task_ids) a.task = r.u32("task_id");
    const std::uint64_t length = r.uint(layout.abi.pointer_size, "data_length");
    a.channel = r.u32("channel");
    a.group = r.u32("group");
    a.colour = r.u32("colour");
    a.annotation_type = r.u8("type");
    if (r.ok() && length > r.remaining())
        return failed(r,
                      "data_length " + std::to_string(length) + " is more than the block's " +
                          std::to_string(r.remaining()) + " remaining bytes",
                      "data_length");
    const auto bytes = r.bytes(static_cast<std::size_t>(length), "data");
    if (!r.ok()) return r.take_error();
    // The agent stores the C string with its NUL; stop at the first one.
    for (const std::uint8_t b : bytes) {
        if (b == 0) break;
        a.text.push_back(static_cast<char>(b));
    }
    if (a.annotation_type > 3)
        return failed(r, "unknown annotation type " + std::to_string(a.annotation_type), "type");
    return RecordRef{a};
}

}  // namespace

RecordParser::RecordParser(const Header& header)
    : layout_(header.records()), series_(header.constants().num_custom_counters) {
    for (const auto& core : header.cores) {
        counters_per_core_.push_back(static_cast<std::uint32_t>(core.counter_types.size()));
        configured_.push_back(core.configured());
    }
}

std::optional<RecordRef> RecordParser::parse_fast(std::span<const std::uint8_t> data) {
    if (const CustomCounterRecord* c = parse_custom_value(data)) return RecordRef{*c};
    if (const SampleRecord* s = parse_sample(data)) return RecordRef{s};
    return std::nullopt;
}

const CustomCounterRecord* RecordParser::parse_custom_value(std::span<const std::uint8_t> data) {
    if (data.size() < RecordLayout::kHeaderSize) return nullptr;
    const wire::Endian e = layout_.abi.endian;
    const std::uint8_t* const d = data.data();
    const RecordHeader h{wire::load_u32(d, e), wire::load_u32(d + 4, e), wire::load_u64(d + 8, e)};
    if ((h.type != 4 && h.type != 8) || h.core >= counters_per_core_.size()) return nullptr;
    std::size_t at = RecordLayout::kHeaderSize;
    CustomCounterRecord& c = custom_;
    c.header = h;
    c.task.reset();
    if (layout_.task_ids && h.type != 8) {  // type 8 never has a task id
        if (data.size() < at + 4) return nullptr;
        c.task = wire::load_u32(d + at, e);
        at += 4;
    }
    if (data.size() < at + 12) return nullptr;
    c.counter = wire::load_u32(d + at, e);
    c.value = wire::load_u64(d + at + 4, e);
    return c.counter < series_ ? &c : nullptr;
}

const SampleRecord* RecordParser::parse_sample(std::span<const std::uint8_t> data) {
    if (data.size() < RecordLayout::kHeaderSize) return nullptr;
    const wire::Endian e = layout_.abi.endian;
    const std::uint8_t* const d = data.data();
    const RecordHeader h{wire::load_u32(d, e), wire::load_u32(d + 4, e), wire::load_u64(d + 8, e)};
    if ((h.type != 1 && h.type != 2) || h.core >= counters_per_core_.size() || !configured_[h.core])
        return nullptr;
    std::size_t at = RecordLayout::kHeaderSize;
    std::optional<std::uint32_t> task;
    if (layout_.task_ids) {
        if (data.size() < at + 4) return nullptr;
        task = wire::load_u32(d + at, e);
        at += 4;
    }
    std::uint64_t custom = 0;
    if (layout_.custom_counters) {
        if (data.size() < at + 4) return nullptr;
        custom = wire::load_u32(d + at, e);
        at += 4;
    }
    const std::size_t pc_size = h.type == 2 ? layout_.abi.pointer_size : 0;
    const std::uint32_t pmu = counters_per_core_[h.core];
    if (data.size() - at <
        pc_size + std::uint64_t{pmu} * 8 + custom * RecordLayout::kCustomValueSize)
        return nullptr;
    SampleRecord& s = sample_;
    s.header = h;
    s.task = task;
    s.pc.reset();
    if (pc_size != 0) s.pc = load_pointer(d + at, layout_.abi);
    at += pc_size;
    s.pmu.resize(pmu);
    for (std::uint32_t i = 0; i < pmu; ++i, at += 8) s.pmu[i] = wire::load_u64(d + at, e);
    s.custom.resize(static_cast<std::size_t>(custom));
    for (auto& v : s.custom) {
        v.id = wire::load_u32(d + at, e);
        v.value = wire::load_u64(d + at + 4, e);
        at += RecordLayout::kCustomValueSize;
    }
    return &s;
}

Result<RecordRef> RecordParser::parse(std::span<const std::uint8_t> data,
                                      std::uint64_t file_offset) {
    if (auto fast = parse_fast(data)) return *fast;
    wire::ByteReader r(data, layout_.abi.endian, file_offset);
    r.set_record(kind::kBlock);
    r.set_whole_record();  // a block, cut out by its length
    RecordHeader h;
    h.type = r.u32("record_type");
    h.core = r.u32("core");
    h.timestamp = r.u64("timestamp");
    if (!r.ok()) return r.take_error();
    // Every record names the core it was written on, and the capture declares the header's
    // cores only: a core past them is a corrupt field, whatever the record.
    if (h.core >= counters_per_core_.size()) {
        Error e = Error::at(ErrorKind::Malformed, "core " + std::to_string(h.core) +
                                                      " is not below max_cores " +
                                                      std::to_string(counters_per_core_.size()));
        e.offset = file_offset + 4;
        e.record = std::string(kind::of_type(h.type));
        e.field = "core";
        return e;
    }
    auto record = parse_body(r, h);
    if (!record) {
        // Named only on failure: most kind names are too long for std::string's inline buffer.
        Error e = std::move(record).take_error();
        e.record = std::string(kind::of_type(h.type));
        return e;
    }
    return record;
}

Result<RecordRef> RecordParser::parse_body(wire::ByteReader& r, const RecordHeader& h) {
    switch (h.type) {
        case 1:
        case 2:
            return parse_checked_sample(r, h, layout_, configured_[h.core],
                                        counters_per_core_[h.core], sample_);
        case 3: {
            TaskSwitchRecord t{h, r.u32("task_id"), r.u8("reason")};
            if (!r.ok()) return r.take_error();
            return RecordRef{t};
        }
        case 4:
        case 8:
            return parse_custom_counter(r, h, layout_, series_);
        case 5:
            return parse_annotation(r, h, layout_);
        case 6: {
            HaltRecord halt{h, r.u8("entered_halt") != 0};
            if (!r.ok()) return r.take_error();
            return RecordRef{halt};
        }
        case 7: {
            PcSampleRecord p{h, r.uint(layout_.abi.pointer_size, "pc")};
            if (!r.ok()) return r.take_error();
            return RecordRef{p};
        }
        case 9:
            return RecordRef{WarningRecord{h, r.remaining()}};
        default:
            return failed(r, "unknown record type " + std::to_string(h.type), "record_type");
    }
}

}  // namespace apcgate::collectors::barman
