// The parent's side of the frame codec: the layout is in worker_frames.hpp. Every field goes
// through wire::ByteReader (its first error sticks and names the frame and field); counts are
// checked against what is left of the frame before anything is allocated for them, counter keys
// against the keys the parent gave the child. Stretches of uncoloured string annotations are
// read straight into span runs.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/worker_event_fields.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/byte_text.hpp"

namespace apcgate::collectors::ctf {

static_assert(std::endian::native == std::endian::little, "frames are read in host order");

namespace {

using wire::ByteReader;

// A chunk holds about kChunkEvents events (ctf_source.hpp); this allows far more.
constexpr std::uint32_t kMaxFrameEvents = 1u << 20;
constexpr std::size_t kMinEventBytes = 13;  // tag + ts + tid of the smallest (TaskExit)

// A string of at most `max` bytes (the ones the worker keeps short); longer is an error.
std::string read_string(ByteReader& r, std::string_view field,
                        std::size_t max = std::numeric_limits<std::uint32_t>::max()) {
    const std::uint32_t n = r.u32(field);
    if (r.ok() && n > max)
        r.fail("string of " + std::to_string(n) + " bytes, over " + std::to_string(max), field);
    if (!r.ok()) return {};
    return std::string(wire::text_of(r.bytes(n, field)));
}

// A count of items of at least `min_bytes` each, checked against the bytes left.
std::uint32_t read_count(ByteReader& r, std::size_t min_bytes, std::string_view field) {
    const std::uint32_t n = r.u32(field);
    if (r.ok() && static_cast<std::uint64_t>(n) * min_bytes > r.remaining())
        r.fail("count " + std::to_string(n) + " exceeds the frame", field);
    return r.ok() ? n : 0;
}

Error read_error(ByteReader& r) {
    Error e;
    const std::uint8_t kind = r.u8("kind");
    if (r.ok() && kind > static_cast<std::uint8_t>(ErrorKind::Internal))
        r.fail("error kind " + std::to_string(kind) + " is unknown", "kind");
    e.kind = static_cast<ErrorKind>(kind);
    e.message = read_string(r, "message");
    e.input = read_string(r, "input");
    const bool has_offset = r.u8("has_offset") != 0;
    const std::uint64_t offset = r.u64("offset");
    if (has_offset) e.offset = offset;
    e.record = read_string(r, "record");
    e.field = read_string(r, "field");
    const std::uint32_t n = read_count(r, 4, "ncontext");
    for (std::uint32_t i = 0; i < n && r.ok(); ++i) e.context.push_back(read_string(r, "context"));
    return e;
}

std::optional<model::Rgb> read_color(ByteReader& r) {
    if (r.u8("color") == 0) return std::nullopt;
    model::Rgb c;
    c.r = r.u8("r");
    c.g = r.u8("g");
    c.b = r.u8("b");
    return c;
}

// The checks both field readers make: a counter key the parent gave the worker (keys from 3
// on, keys[k - 3]), and a wait state the model has.
bool given_key(std::int32_t k, const std::vector<model::CounterKey>& keys) {
    return k >= 3 && static_cast<std::size_t>(k - 3) < keys.size();
}
bool known_wait(std::int32_t w) {
    return w >= 0 && w <= 2;
}

model::CounterKey read_key(ByteReader& r, const std::vector<model::CounterKey>& keys) {
    const std::int32_t k = r.i32("key");
    if (!r.ok()) return 0;
    if (!given_key(k, keys)) {
        r.fail("counter key " + std::to_string(k) + " was not given to the worker", "key");
        return 0;
    }
    return keys[static_cast<std::size_t>(k - 3)];
}

model::WaitState read_wait(ByteReader& r, std::string_view field) {
    const std::int32_t w = r.i32(field);
    if (!known_wait(w)) r.fail("wait state " + std::to_string(w) + " is unknown", field);
    return static_cast<model::WaitState>(w);
}

// Reads fields as worker_event_fields.hpp lists them, each checked by name.
struct FieldReader {
    ByteReader& r;
    const std::vector<model::CounterKey>& keys;
    void i32(std::int32_t& v, std::string_view field) { v = r.i32(field); }
    void i64(std::int64_t& v, std::string_view field) { v = r.i64(field); }
    void key(model::CounterKey& v, std::string_view) { v = read_key(r, keys); }
    void wait(model::WaitState& v, std::string_view field) { v = read_wait(r, field); }
    void color(std::optional<model::Rgb>& c, std::string_view) { c = read_color(r); }
    void str(std::string& s, std::string_view field) { s = read_string(r, field); }
};

// The same fields read straight from the frame's bytes, each load an inline bounds check: a
// chunk is tens of thousands of events of a few fields each, and a ByteReader call per field
// was a third of the parent's instructions. It checks what FieldReader checks (the bytes left,
// counter keys, wait states) but only says whether all was well: on any failure the event is
// read again through FieldReader, so an error is the same, at the same offset, as before.
struct RawFieldReader {
    const std::uint8_t* p;
    const std::uint8_t* end;
    const std::vector<model::CounterKey>& keys;
    bool ok = true;

    template <typename T>
    T load() {
        T v{};
        if (static_cast<std::size_t>(end - p) < sizeof(T)) {
            ok = false;
            return v;
        }
        std::memcpy(&v, p, sizeof(T));
        p += sizeof(T);
        return v;
    }
    void i32(std::int32_t& v, std::string_view) { v = load<std::int32_t>(); }
    void i64(std::int64_t& v, std::string_view) { v = load<std::int64_t>(); }
    void key(model::CounterKey& v, std::string_view) {
        const auto k = load<std::int32_t>();
        v = 0;
        if (given_key(k, keys))
            v = keys[static_cast<std::size_t>(k - 3)];
        else
            ok = false;
    }
    void wait(model::WaitState& v, std::string_view) {
        const auto w = load<std::int32_t>();
        if (!known_wait(w)) ok = false;
        v = static_cast<model::WaitState>(w);
    }
    void color(std::optional<model::Rgb>& c, std::string_view) {
        if (load<std::uint8_t>() == 0) {
            c.reset();
            return;
        }
        model::Rgb rgb;
        rgb.r = load<std::uint8_t>();
        rgb.g = load<std::uint8_t>();
        rgb.b = load<std::uint8_t>();
        c = rgb;
    }
    void str(std::string& s, std::string_view) {
        const auto n = load<std::uint32_t>();
        if (!ok || static_cast<std::size_t>(end - p) < n) {
            ok = false;
            return;
        }
        if (n == 0) {  // a sliced text (worker_frames.hpp): no out-of-line assign
            s.clear();
            return;
        }
        s.assign(wire::text_of(std::span(p, n)));
        p += n;
    }
};

// One event of kind `tag` read unchecked into its place at the end of `out` (no model event is
// built aside and moved in: this is the parent's busiest loop); nothing is left there unless it
// was known and read whole and valid.
bool read_raw(RawFieldReader& raw, std::uint8_t tag, std::vector<model::Event>& out) {
    namespace ef = event_fields;
    bool known = false;
    ef::for_each_kind<ef::Events>([&]<typename T>() {
        if (known || tag != ef::tag_of<T>()) return;
        known = true;
        ef::fields(raw, std::get<T>(out.emplace_back(std::in_place_type<T>)));
    });
    ef::for_each_kind<ef::Bodies>([&]<typename B>() {
        if (known || tag != ef::tag_of<B>()) return;
        known = true;
        auto& a =
            std::get<model::Annotation>(out.emplace_back(std::in_place_type<model::Annotation>));
        ef::head(raw, a);
        ef::fields(raw, a.body.template emplace<B>());
    });
    if (known && !raw.ok) out.pop_back();
    return known && raw.ok;
}

// The event at the reader's position appended to `out`: read unchecked when it is whole and
// valid (nearly always), else through the ByteReader for its error.
void read_event(ByteReader& r, const std::vector<model::CounterKey>& keys,
                std::vector<model::Event>& out) {
    const auto rest = r.rest();
    RawFieldReader raw{rest.data(), rest.data() + rest.size(), keys};
    const auto quick_tag = raw.load<std::uint8_t>();
    if (raw.ok && read_raw(raw, quick_tag, out)) {
        r.skip(static_cast<std::size_t>(raw.p - rest.data()), "event");
        return;
    }
    namespace ef = event_fields;
    const std::uint8_t tag = r.u8("tag");
    FieldReader io{r, keys};
    bool known = false;
    ef::for_each_kind<ef::Events>([&]<typename T>() {
        if (tag != ef::tag_of<T>()) return;
        T e;
        ef::fields(io, e);
        out.emplace_back(std::move(e));
        known = true;
    });
    ef::for_each_kind<ef::Bodies>([&]<typename B>() {
        if (tag != ef::tag_of<B>()) return;
        model::Annotation a;
        ef::head(io, a);
        B body;
        ef::fields(io, body);
        a.body = std::move(body);
        out.emplace_back(std::move(a));
        known = true;
    });
    if (!known) r.fail("event tag " + std::to_string(tag) + " is unknown", "tag");
}

// An uncoloured string annotation as the encoder writes it (event_fields::head() then
// fields()): where each field starts, the text after the length. The round-trip tests decode
// what the encoder wrote, so this cannot drift from it unnoticed.
namespace plain {
constexpr std::size_t kTs = 1;  // after the tag
constexpr std::size_t kCore = kTs + 8;
constexpr std::size_t kTid = kCore + 4;
constexpr std::size_t kChannel = kTid + 4;
constexpr std::size_t kColor = kChannel + 4;  // 0: no colour
constexpr std::size_t kLength = kColor + 1;
constexpr std::size_t kHead = kLength + 4;

template <typename T>
T at(const std::uint8_t* event, std::size_t offset) {
    T v;
    std::memcpy(&v, event + offset, sizeof v);
    return v;
}
}  // namespace plain

// How many of the (at most `max`) events at the start of `bytes` are whole uncoloured string
// annotations, and the bytes of their texts: the stretch one SpanRun holds (read_plain_run()).
std::pair<std::size_t, std::size_t> plain_stretch(std::span<const std::uint8_t> bytes,
                                                  std::size_t max) {
    constexpr auto kTag = event_fields::tag_of<model::StringAnnotation>();
    std::size_t n = 0, texts = 0, at = 0;
    while (n < max && bytes.size() - at >= plain::kHead && bytes[at] == kTag &&
           bytes[at + plain::kColor] == 0) {
        const auto length = plain::at<std::uint32_t>(bytes.data() + at, plain::kLength);
        if (bytes.size() - at - plain::kHead < length) break;
        at += plain::kHead + length;
        texts += length;
        ++n;
    }
    return {n, texts};
}

// The `n` events plain_stretch() found, appended to `out` as one SpanRun (the encoder writes the
// same bytes for it as for the annotations, without a heap string each, and the polling thread
// moves one event instead of thousands: a chunk of an LTTng-UST trace is nearly all string
// annotations). A frame is at most 64 MiB, so its texts fit a run's 4 GiB.
void read_plain_run(ByteReader& r, std::size_t n, std::size_t text_bytes,
                    std::vector<model::Event>& out) {
    const auto rest = r.rest();
    const std::uint8_t* p = rest.data();
    auto& run = std::get<model::SpanRun>(out.emplace_back(std::in_place_type<model::SpanRun>));
    run.items.reserve(n);
    run.texts.reserve(text_bytes);
    for (std::size_t i = 0; i < n; ++i) {
        const auto length = plain::at<std::uint32_t>(p, plain::kLength);
        run.add(plain::at<std::int64_t>(p, plain::kTs), plain::at<std::int32_t>(p, plain::kCore),
                plain::at<std::int32_t>(p, plain::kTid),
                plain::at<std::int32_t>(p, plain::kChannel),
                wire::text_of(std::span(p + plain::kHead, length)));
        p += plain::kHead + length;
    }
    r.skip(static_cast<std::size_t>(p - rest.data()), "event");
}

Status failed(ByteReader& r) {
    return r.take_error();
}

}  // namespace

Result<FrameHeader> decode_header(std::span<const std::uint8_t> header) {
    ByteReader r(header);
    r.set_record("CTF worker frame header");
    FrameHeader h;
    const std::uint32_t length = r.u32("length");
    const std::uint8_t kind = r.u8("kind");
    if (!r.ok()) return r.take_error();
    if (length < 1 || length > kMaxFrameBytes) {
        r.fail("frame length " + std::to_string(length) + " is outside 1.." +
                   std::to_string(kMaxFrameBytes),
               "length");
        return r.take_error();
    }
    if (kind < 1 || kind > 4) {
        r.fail("frame kind " + std::to_string(kind) + " is unknown", "kind");
        return r.take_error();
    }
    h.kind = static_cast<FrameKind>(kind);
    h.body_bytes = length - 1;
    return h;
}

Result<ProbeResult> decode_probe(std::span<const std::uint8_t> body) {
    ByteReader r(body);
    r.set_record("CTF worker probe frame");
    ProbeResult p;
    const std::uint32_t ntraces = read_count(r, 4, "ntraces");
    for (std::uint32_t i = 0; i < ntraces && r.ok(); ++i)
        p.traces.emplace_back(read_string(r, "trace"));
    const std::uint32_t nrejected = read_count(r, 29, "nrejected");
    for (std::uint32_t i = 0; i < nrejected && r.ok(); ++i) p.rejected.push_back(read_error(r));
    p.needs.irq = r.u8("irq") != 0;
    p.needs.softirq = r.u8("softirq") != 0;
    p.needs.sched = r.u8("sched") != 0;
    const std::uint32_t nperf = read_count(r, 14, "nperf");
    for (std::uint32_t i = 0; i < nperf && r.ok(); ++i) {
        PerfContext c;
        c.member.index = r.i32("member");
        const std::uint8_t type = r.u8("member_type");
        if (type > static_cast<std::uint8_t>(MemberRef::Type::String))
            r.fail("member type " + std::to_string(type) + " is unknown", "member_type");
        c.member.type = static_cast<MemberRef::Type>(type);
        c.counter = read_string(r, "counter");
        c.label = read_string(r, "label");
        c.per_thread = r.u8("per_thread") != 0;
        p.needs.perf.push_back(std::move(c));
    }
    p.needs.cores = std::clamp(r.i32("needs_cores"), 1, 4096);
    p.hostname = read_string(r, "hostname");
    p.cores = std::clamp(r.i32("cores"), 1, 4096);
    if (r.u8("has_range") != 0) {
        TimeRange range;
        range.begin = r.i64("begin");
        range.end = r.i64("end");
        p.range = range;
    }
    p.clock.domain = read_string(r, "clock_domain", kMaxClockText);
    if (r.u8("has_to_monotonic") != 0) p.clock.to_monotonic = r.i64("to_monotonic");
    p.clock.description = read_string(r, "clock_description", kMaxClockText);
    if (r.ok() && !r.at_end()) r.fail(std::to_string(r.remaining()) + " bytes left over", "end");
    if (!r.ok()) return r.take_error();
    return p;
}

Status decode_chunk(std::span<const std::uint8_t> body, const std::vector<model::CounterKey>& keys,
                    Chunk& out) {
    ByteReader r(body);
    r.set_record("CTF worker chunk frame");
    out.events.clear();
    out.texts.clear();
    out.counts = ingest::IngestReport("ctf", "");
    out.watermark = r.i64("watermark");
    out.clock_ns = r.i64("clock_ns");
    out.finished = r.u8("finished") != 0;
    const std::uint32_t nkinds = read_count(r, 28, "nkinds");
    for (std::uint32_t i = 0; i < nkinds && r.ok(); ++i) {
        const std::string name = read_string(r, "kind");
        const std::uint64_t read = r.u64("read"), mapped = r.u64("mapped");
        const std::uint64_t skipped = r.u64("skipped");
        if (read > 0) out.counts.read(name, read);
        if (mapped > 0) out.counts.mapped(name, mapped);
        if (skipped > 0) out.counts.skipped(name, skipped);
    }
    const std::uint32_t nproblems = read_count(r, 29, "nproblems");
    std::vector<Error> problems;
    for (std::uint32_t i = 0; i < nproblems && r.ok(); ++i) problems.push_back(read_error(r));
    const bool stopped = r.u8("stopped") != 0;
    if (r.ok() && stopped && problems.empty()) r.fail("stopped without a problem", "stopped");
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (stopped && i + 1 == problems.size())
            out.counts.stopped(std::move(problems[i]));
        else
            out.counts.bad_record(std::move(problems[i]));
    }
    const std::uint32_t nevents = read_count(r, kMinEventBytes, "nevents");
    if (nevents > kMaxFrameEvents)
        r.fail("more than " + std::to_string(kMaxFrameEvents) + " events", "nevents");
    if (!r.ok()) return failed(r);
    // Not reserved for `nevents`: the span runs make far fewer events of most chunks, and the
    // vector (the reader's, handed back by the poller) keeps its room from chunk to chunk.
    for (std::uint32_t i = 0; i < nevents && r.ok();) {
        // Two or more uncoloured string annotations in a row: one SpanRun, sized first.
        const auto [n, text_bytes] = plain_stretch(r.rest(), nevents - i);
        if (n >= 2) {
            read_plain_run(r, n, text_bytes, out.events);
            i += static_cast<std::uint32_t>(n);
            continue;
        }
        read_event(r, keys, out.events);
        ++i;
    }
    if (r.ok() && !r.at_end()) r.fail(std::to_string(r.remaining()) + " bytes left over", "end");
    if (!r.ok()) return failed(r);
    return {};
}

Status decode_error(std::span<const std::uint8_t> body, Error& out) {
    ByteReader r(body);
    r.set_record("CTF worker error frame");
    out = read_error(r);
    if (r.ok() && !r.at_end()) r.fail(std::to_string(r.remaining()) + " bytes left over", "end");
    if (!r.ok()) return r.take_error();
    return {};
}

}  // namespace apcgate::collectors::ctf
