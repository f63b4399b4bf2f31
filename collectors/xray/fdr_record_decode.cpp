#include "collectors/xray/fdr_record_decode.hpp"

namespace apcgate::collectors::xray {

namespace {

// A reader over one metadata record's 15 data bytes. The token is exactly 16 bytes (the
// tokenizer framed it), so these reads cannot run out; the reader still checks.
wire::ByteReader data_reader(const FdrToken& t, const FdrFormat& f) {
    wire::ByteReader r(t.bytes, f.endian, t.offset);
    r.set_record(stat_name(stat_of(t.kind)));
    r.set_whole_record();
    r.skip(1, "kind");
    return r;
}

}  // namespace

Stat stat_of(FdrKind k) {
    switch (k) {
        case FdrKind::NewBuffer:
            return Stat::NewBuffer;
        case FdrKind::EndOfBuffer:
            return Stat::EndOfBuffer;
        case FdrKind::NewCpuId:
            return Stat::NewCpuId;
        case FdrKind::TscWrap:
            return Stat::TscWrap;
        case FdrKind::WallClock:
            return Stat::WallClock;
        case FdrKind::CustomEvent:
            return Stat::CustomEvent;
        case FdrKind::CallArgument:
            return Stat::CallArgument;
        case FdrKind::BufferExtents:
            return Stat::BufferExtents;
        case FdrKind::TypedEvent:
            return Stat::TypedEvent;
        case FdrKind::Pid:
            return Stat::Pid;
        case FdrKind::Function:
            return Stat::Function;
    }
    return Stat::Function;
}

NewBufferRecord decode_new_buffer(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    return {r.i32("tid")};
}

NewCpuIdRecord decode_new_cpu_id(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    NewCpuIdRecord rec;
    rec.cpu = r.u16("cpu");
    rec.tsc = r.u64("tsc");
    return rec;
}

TscWrapRecord decode_tsc_wrap(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    return {r.u64("tsc")};
}

WallClockRecord decode_wall_clock(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    WallClockRecord rec;
    rec.seconds = r.u64("seconds");
    rec.fraction = r.u32("micros");
    return rec;
}

CustomEventRecord decode_custom_event(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    CustomEventRecord rec;
    rec.size = r.i32("size");
    if (f.version >= 5) {
        rec.has_delta = true;
        rec.tsc_delta = r.i32("tsc_delta");
    } else {
        rec.tsc = r.u64("tsc");
        if (f.version == 4) {
            rec.has_cpu = true;
            rec.cpu = r.u16("cpu");
        }
    }
    return rec;
}

CallArgumentRecord decode_call_argument(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    return {r.u64("argument")};
}

BufferExtentsRecord decode_buffer_extents(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    return {r.u64("size")};
}

TypedEventRecord decode_typed_event(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    TypedEventRecord rec;
    rec.size = r.i32("size");
    rec.tsc_delta = r.i32("tsc_delta");
    rec.type = r.u16("event_type");
    return rec;
}

PidRecord decode_pid(const FdrToken& t, const FdrFormat& f) {
    auto r = data_reader(t, f);
    return {r.i32("pid")};
}

std::int32_t event_payload_size(std::span<const std::uint8_t> bytes, const FdrFormat& f) {
    wire::ByteReader r(bytes, f.endian);
    r.skip(1, "kind");
    return r.i32("size");
}

}  // namespace apcgate::collectors::xray
