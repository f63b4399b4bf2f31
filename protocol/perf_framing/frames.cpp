#include "protocol/perf_framing/frames.hpp"

#include <cstring>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::perf_framing {

namespace {

using wire::ByteReader;

std::string_view as_text(std::span<const std::uint8_t> b) {
    return {reinterpret_cast<const char*>(b.data()), b.size()};  // NOLINT
}

// Text followed by exactly one NUL (PERF_ATTRS text payloads).
std::string_view cstr(ByteReader& r, std::string_view field) {
    if (!r.ok()) return {};
    const auto rest = r.rest();
    const void* nul = std::memchr(rest.data(), 0, rest.size());
    if (nul == nullptr) {
        r.fail("text without its terminating NUL runs to the end of the frame", field);
        return {};
    }
    const auto len = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - rest.data());
    const auto text = as_text(r.bytes(len, field));
    r.skip(1, field);
    return text;
}

void expect_end(ByteReader& r, std::string_view what) {
    if (r.ok() && !r.at_end())
        r.fail(std::to_string(r.remaining()) + " bytes after the end of the " + std::string(what));
}

SummaryFrame read_summary(ByteReader& r) {
    SummaryFrame s;
    s.canary = std::string(r.packed_string("canary"));
    if (r.ok() && s.canary != kSummaryCanary)
        r.fail("summary canary is not \"1\\n2\\r\\n3\\r4\\n\\r5\"", "canary");
    s.realtime_ns = r.packed64("realtime");
    s.boottime_ns = r.packed64("boottime");
    s.monotonic_raw_ns = r.packed64("monotonic_raw");
    s.monotonic_ns = r.packed64("monotonic");
    while (r.ok()) {
        const auto key = r.packed_string("attribute key");
        if (!r.ok() || key.empty()) break;
        const auto value = r.packed_string("attribute value");
        s.attributes.emplace_back(std::string(key), std::string(value));
    }
    expect_end(r, "summary");
    return s;
}

CoreNameFrame read_core_name(ByteReader& r) {
    CoreNameFrame c;
    c.core = r.packed32("core");
    c.cpuid = r.packed32("cpuid");
    c.name = std::string(r.packed_string("name"));
    expect_end(r, "core name");
    return c;
}

BlockCounterFrame read_block_counter(ByteReader& r) {
    BlockCounterFrame b;
    b.core = r.packed32("core");
    while (r.ok() && !r.at_end()) {
        const std::int32_t key = r.packed32("key");
        const std::int64_t value = r.packed64("value");
        b.entries.emplace_back(key, value);
    }
    return b;
}

ExternalFrame read_external(ByteReader& r) {
    ExternalFrame e;
    e.id = r.packed32("id");
    if (e.id == -1) {
        e.disconnect = true;
        e.id = r.packed32("disconnected id");
        expect_end(r, "external disconnect");
    } else {
        e.data = r.bytes(r.remaining(), "data");
    }
    return e;
}

PeaMessage read_pea(ByteReader& r) {
    PeaMessage p;
    auto attr = parse_perf_attr(r.rest(), r.offset());
    if (!attr) {
        const Error& e = attr.error();
        r.fail(e.kind, e.message, e.field.empty() ? "attr" : e.field);
        return p;
    }
    p.attr = std::move(attr).value();
    r.skip(p.attr.size, "attr");
    p.key = r.packed32("key");
    return p;
}

KeysMessage read_keys(ByteReader& r) {
    KeysMessage k;
    const std::int32_t n = r.packed32("count");
    // Each pair takes at least two bytes: a larger count cannot fit in the frame.
    if (n < 0 || static_cast<std::size_t>(n) > r.remaining() / 2) {
        r.fail("key count " + std::to_string(n) + " does not fit in the frame", "count");
        return k;
    }
    for (std::int32_t i = 0; i < n && r.ok(); ++i) {
        const auto id = static_cast<std::uint64_t>(r.packed64("id"));
        const std::int32_t key = r.packed32("key");
        k.ids.emplace_back(id, key);
    }
    return k;
}

MapsMessage read_maps(ByteReader& r) {
    MapsMessage x;
    x.pid = r.packed32("pid");
    x.tid = r.packed32("tid");
    x.maps = cstr(r, "maps");
    return x;
}

CommMessage read_comm(ByteReader& r) {
    CommMessage c;
    c.pid = r.packed32("pid");
    c.tid = r.packed32("tid");
    c.image = cstr(r, "image");
    c.comm = cstr(r, "comm");
    return c;
}

OpaqueMessage skip_keys_old(ByteReader& r) {
    // Its trailing group read() is not self-describing: it can only end the frame.
    const std::int32_t n = r.packed32("count");
    for (std::int32_t i = 0; i < n && r.ok(); ++i) r.packed32("key");
    r.skip(r.remaining(), "read bytes");
    return {};
}

CpuMessage read_cpu(ByteReader& r) {
    CpuMessage c;
    c.time = r.packed64("time");
    c.cpu = r.packed32("cpu");
    return c;
}

CountersMessage read_counters(ByteReader& r) {
    CountersMessage c;
    c.time = r.packed64("time");
    for (;;) {
        const std::int32_t core = r.packed32("core");
        if (!r.ok() || core == -1) break;
        CountersMessage::Value v;
        v.core = core;
        v.key = r.packed32("key");
        v.value = r.packed64("value");
        c.values.push_back(v);
    }
    return c;
}

OpaqueMessage skip_metric_event_key(ByteReader& r) {
    r.packed32("metric_key"), r.packed32("event_code"), r.packed32("event_key"), r.packed32("type");
    return {};
}

BuildIdMessage read_build_id(ByteReader& r, bool of_module) {
    BuildIdMessage b;
    if (of_module) b.module = r.packed_string("module");
    const std::int32_t n = r.packed32("length");
    if (n < 0) r.fail("negative build id length", "length");
    b.id = r.bytes(static_cast<std::size_t>(n < 0 ? 0 : n), "build id");
    return b;
}

void read_attrs_message(ByteReader& r, AttrsMessage& m) {
    switch (m.code) {
        case AttrsCode::Pea:
            m.body = read_pea(r);
            return;
        case AttrsCode::Keys:
            m.body = read_keys(r);
            return;
        case AttrsCode::Format:
        case AttrsCode::Kallsyms:
        case AttrsCode::HeaderPage:
        case AttrsCode::HeaderEvent:
            m.body = TextMessage{cstr(r, "text")};
            return;
        case AttrsCode::Maps:
            m.body = read_maps(r);
            return;
        case AttrsCode::Comm:
            m.body = read_comm(r);
            return;
        case AttrsCode::KeysOld:
            m.body = skip_keys_old(r);
            return;
        case AttrsCode::OnlineCpu:
        case AttrsCode::OfflineCpu:
            m.body = read_cpu(r);
            return;
        case AttrsCode::Counters:
            m.body = read_counters(r);
            return;
        case AttrsCode::MetricEventKey:
            m.body = skip_metric_event_key(r);
            return;
        case AttrsCode::KernelBuildId:
            m.body = read_build_id(r, /*of_module=*/false);
            return;
        case AttrsCode::KernelModuleBuildId:
            m.body = read_build_id(r, /*of_module=*/true);
            return;
    }
    r.fail("unknown PERF_ATTRS message code " + std::to_string(static_cast<int>(m.code)), "code");
}

PerfAttrsFrame read_attrs(ByteReader& r) {
    PerfAttrsFrame f;
    f.legacy_core = r.packed32("legacy core");
    while (r.ok() && !r.at_end()) {
        AttrsMessage m;
        m.offset = r.offset();
        r.set_record("PERF_ATTRS message");
        m.code = static_cast<AttrsCode>(r.packed32("code"));
        if (!r.ok()) break;
        r.set_record("PERF_ATTRS " + to_string(m.code));
        read_attrs_message(r, m);
        if (r.ok()) f.messages.push_back(std::move(m));
    }
    return f;
}

PerfDataFrame read_perf_data(ByteReader& r) {
    PerfDataFrame d;
    d.cpu = r.packed32("cpu");
    const std::size_t length_at = r.pos();
    d.packed_bytes = r.u32("length");
    if (!r.ok()) return d;
    if (d.packed_bytes != r.remaining()) {
        r.seek(length_at);
        r.fail("length " + std::to_string(d.packed_bytes) + " but " +
                   std::to_string(r.remaining()) + " bytes follow in the frame",
               "length");
        return d;
    }
    // Each word is at least one packed byte and at most ten.
    d.raw.reserve(static_cast<std::size_t>(d.packed_bytes) * 8 / 3);
    d.word_offsets.reserve(d.packed_bytes / 3);
    while (r.ok() && !r.at_end()) {
        d.word_offsets.push_back(r.offset());
        const auto w = static_cast<std::uint64_t>(r.packed64("word"));
        for (int i = 0; i < 8; ++i) d.raw.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    }
    return d;
}

PerfAuxFrame read_aux(ByteReader& r) {
    PerfAuxFrame a;
    a.cpu = r.packed32("cpu");
    a.tail = r.packed64("aux_tail");
    const std::int64_t n = r.packed64("size");
    if (r.ok() && (n < 0 || static_cast<std::uint64_t>(n) > r.remaining())) {
        r.fail("aux size " + std::to_string(n) + " exceeds the frame", "size");
        return a;
    }
    a.data = r.bytes(static_cast<std::size_t>(n), "aux bytes");
    expect_end(r, "aux data");
    return a;
}

PerfSyncFrame read_sync(ByteReader& r) {
    PerfSyncFrame s;
    s.cpu = r.packed32("cpu");
    s.pid = r.packed32("pid");
    s.tid = r.packed32("tid");
    s.freq = r.packed64("freq");
    s.monotonic_raw = r.packed64("monotonic_raw");
    s.counter = r.packed64("counter");
    expect_end(r, "sync");
    return s;
}

}  // namespace

const std::string* SummaryFrame::attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
        if (k == key) return &v;
    return nullptr;
}

Result<DecodedPerfFrame> decode_perf_frame(std::span<const std::uint8_t> body,
                                           std::uint64_t body_offset) {
    ByteReader r(body, wire::Endian::Little, body_offset);
    r.set_record("frame");
    r.set_whole_record();  // a frame, cut out by its length
    DecodedPerfFrame f;
    f.offset = body_offset;
    f.type = r.packed32("frame type");
    if (!r.ok()) return r.take_error();
    r.set_record(to_string(f.type));
    switch (static_cast<FrameType>(f.type)) {
        case FrameType::Summary: {
            const std::int32_t code = r.packed32("message code");
            if (!r.ok()) break;
            if (code == kSummaryMessage) {
                f.body = read_summary(r);
            } else if (code == kCoreNameMessage) {
                f.body = read_core_name(r);
            } else {
                r.fail("unknown summary message code " + std::to_string(code), "message code");
            }
            break;
        }
        case FrameType::BlockCounter:
            f.body = read_block_counter(r);
            break;
        case FrameType::External:
            f.body = read_external(r);
            break;
        case FrameType::PerfAttrs:
            f.body = read_attrs(r);
            break;
        case FrameType::PerfData:
            f.body = read_perf_data(r);
            break;
        case FrameType::PerfAux:
            f.body = read_aux(r);
            break;
        case FrameType::PerfSync:
            f.body = read_sync(r);
            break;
        default:
            r.seek(0);
            r.fail("frame type " + std::to_string(f.type) + " is not part of the Perf framing",
                   "frame type");
    }
    if (!r.ok()) return r.take_error();
    return f;
}

}  // namespace apcgate::perf_framing
