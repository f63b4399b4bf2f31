// The frame codec of worker_frames.hpp (the layout is there): the encoder appends raw
// little-endian fields with memcpy (the child's cost is what bounds a conversion); the decoder
// reads them back with wire::ByteReader and checks every count, key and text slice.
#include "collectors/ctf/worker_frames.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "collectors/ctf/worker_event_fields.hpp"
#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::ctf {

static_assert(std::endian::native == std::endian::little, "frames are written in host order");

namespace {

// Appends fields to a frame through a cursor: the buffer grows (without zeroing) when reserve()
// says so, and put() only copies. The length is filled in by finish().
class Writer {
  public:
    Writer(FrameBytes& out, FrameKind kind) : out_(out), start_(out.size()), pos_(start_) {
        reserve(kFrameHeaderBytes);
        pos_ += 4;
        put(static_cast<std::uint8_t>(kind));
    }
    // Room for `n` more bytes. Called for every field of every event, and nearly always there
    // is room: the check inline, the growth not.
    void reserve(std::size_t n) {
        if (out_.size() - pos_ < n) [[unlikely]]
            grow(n);
    }
    // Unchecked: after reserve().
    template <typename T>
    void put(T value) {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(out_.data() + pos_, &value, sizeof(T));
        pos_ += sizeof(T);
    }
    void str(std::string_view s) {
        reserve(4 + s.size());
        put(static_cast<std::uint32_t>(s.size()));
        if (!s.empty()) std::memcpy(out_.data() + pos_, s.data(), s.size());
        pos_ += s.size();
    }
    void error(const Error& e) {
        reserve(1);
        put(static_cast<std::uint8_t>(e.kind));
        str(e.message);
        str(e.input);
        reserve(9);
        put<std::uint8_t>(e.offset.has_value());
        put<std::uint64_t>(e.offset.value_or(0));
        str(e.record);
        str(e.field);
        reserve(4);
        put(static_cast<std::uint32_t>(e.context.size()));
        for (const auto& c : e.context) str(c);
    }
    void color(const std::optional<model::Rgb>& c) {
        put<std::uint8_t>(c.has_value());
        if (c) put(std::array<std::uint8_t, 3>{c->r, c->g, c->b});
    }
    // Overwrites a u32 written at `at` (an absolute position in the buffer).
    void patch(std::size_t at, std::uint32_t value) {
        std::memcpy(out_.data() + at, &value, sizeof value);
    }
    [[nodiscard]] std::size_t size() const { return pos_; }
    void finish() {
        out_.resize(pos_);
        const auto length = static_cast<std::uint32_t>(pos_ - start_ - 4);
        std::memcpy(out_.data() + start_, &length, sizeof length);
    }

  private:
    [[gnu::noinline]] void grow(std::size_t n) { out_.resize(std::max(pos_ + n, out_.size() * 2)); }

    FrameBytes& out_;
    std::size_t start_;
    std::size_t pos_;
};

// The most any event writes besides its strings (ProcComm: 1 + 8 + 4 * 4 + two lengths).
constexpr std::size_t kMaxFixedEventBytes = 48;

// Writes fields as worker_event_fields.hpp lists them, after reserve(kMaxFixedEventBytes): the
// fixed ones unchecked, strings (which come last) reserving their own room.
struct FieldWriter {
    Writer& w;
    const std::string_view* text = nullptr;  // a string annotation's deferred text, written for it
    void i32(std::int32_t v, const char*) { w.put(v); }
    void i64(std::int64_t v, const char*) { w.put(v); }
    void key(model::CounterKey v, const char*) { w.put(v); }
    void wait(model::WaitState v, const char*) { w.put(static_cast<std::int32_t>(v)); }
    void color(const std::optional<model::Rgb>& c, const char*) { w.color(c); }
    void str(const std::string& s, const char*) { w.str(text != nullptr ? *text : s); }
};

// False for a kind the CTF mappers never make (it is left out). `text`, when set, is the
// event's text from the chunk's DeferredTexts (it is a string annotation's).
bool put_event(Writer& w, const model::Event& e, const std::string_view* text) {
    namespace ef = event_fields;
    w.reserve(kMaxFixedEventBytes);
    FieldWriter io{w};
    if (const auto* a = std::get_if<model::Annotation>(&e)) {
        // Nearly every event of a UST chunk is a string annotation: the visit's branch for it,
        // taken without the visit's dispatch.
        if (const auto* s = std::get_if<model::StringAnnotation>(&a->body)) {
            w.put(ef::tag_of<model::StringAnnotation>());
            ef::head(io, *a);
            io.text = text;
            ef::fields(io, *s);
            return true;
        }
        return std::visit(
            [&](const auto& body) {
                using B = std::decay_t<decltype(body)>;
                if constexpr (ef::kIsIn<B, ef::Bodies>) {
                    w.put(ef::tag_of<B>());
                    ef::head(io, *a);
                    ef::fields(io, body);
                    return true;
                } else {
                    return false;
                }
            },
            a->body);
    }
    return std::visit(
        [&](const auto& event) {
            using T = std::decay_t<decltype(event)>;
            if constexpr (ef::kIsIn<T, ef::Events>) {
                w.put(ef::tag_of<T>());
                ef::fields(io, event);
                return true;
            } else {
                return false;
            }
        },
        e);
}

}  // namespace

void encode_probe(const ProbeResult& probe, FrameBytes& out) {
    Writer w(out, FrameKind::Probe);
    w.reserve(4);
    w.put(static_cast<std::uint32_t>(probe.traces.size()));
    for (const auto& t : probe.traces) w.str(t.string());
    w.reserve(4);
    w.put(static_cast<std::uint32_t>(probe.rejected.size()));
    for (const auto& e : probe.rejected) w.error(e);
    w.reserve(7);
    w.put<std::uint8_t>(probe.needs.irq);
    w.put<std::uint8_t>(probe.needs.softirq);
    w.put<std::uint8_t>(probe.needs.sched);
    w.put(static_cast<std::uint32_t>(probe.needs.perf.size()));
    for (const auto& p : probe.needs.perf) {
        w.reserve(5);
        w.put(p.member.index);
        w.put(static_cast<std::uint8_t>(p.member.type));
        w.str(p.counter);
        w.str(p.label);
        w.reserve(1);
        w.put<std::uint8_t>(p.per_thread);
    }
    w.reserve(4);
    w.put<std::int32_t>(probe.needs.cores);
    w.str(probe.hostname);
    w.reserve(4 + 1 + 16);
    w.put<std::int32_t>(probe.cores);
    w.put<std::uint8_t>(probe.range.has_value());
    if (probe.range) {
        w.put(probe.range->begin);
        w.put(probe.range->end);
    }
    w.str(probe.clock.domain);
    w.reserve(1 + 8);
    w.put<std::uint8_t>(probe.clock.to_monotonic.has_value());
    if (probe.clock.to_monotonic) w.put<std::int64_t>(*probe.clock.to_monotonic);
    w.str(probe.clock.description);
    w.finish();
}

void encode_chunk(const Chunk& chunk, FrameBytes& out) {
    Writer w(out, FrameKind::Chunk);
    // Most events are 20-40 bytes besides their texts: one growth for the whole frame, most of
    // the time.
    w.reserve(chunk.events.size() * 40 + chunk.texts.size() + 4096);
    w.put(chunk.watermark);
    w.put(chunk.clock_ns);
    w.put<std::uint8_t>(chunk.finished);
    const auto& kinds = chunk.counts.kinds();
    w.put(static_cast<std::uint32_t>(kinds.size()));  // (these 21 bytes are within the 4096)
    for (const auto& [name, s] : kinds) {
        w.str(name);
        w.reserve(24);
        w.put(s.read);
        w.put(s.mapped);
        w.put(s.skipped);
    }
    const auto& problems = chunk.counts.problems();
    w.reserve(4);
    w.put(static_cast<std::uint32_t>(problems.size()));
    for (const auto& e : problems) w.error(e);
    w.reserve(5);
    w.put<std::uint8_t>(chunk.counts.stop_reason().has_value());
    const std::size_t count_at = w.size();
    w.put(std::uint32_t{0});
    std::uint32_t written = 0;
    // The mappers write a string annotation's text into the chunk's DeferredTexts, in event
    // order; each goes into the frame in its event's place.
    const std::string_view texts = chunk.texts.bytes();
    const auto& slices = chunk.texts.slices();
    std::size_t next = 0;
    for (std::size_t i = 0; i < chunk.events.size(); ++i) {
        while (next < slices.size() && slices[next].event < i) ++next;
        std::string_view text;
        const bool sliced = next < slices.size() && slices[next].event == i;
        if (sliced) text = texts.substr(slices[next].offset, slices[next].length);
        written += put_event(w, chunk.events[i], sliced ? &text : nullptr) ? 1 : 0;
    }
    w.patch(count_at, written);
    w.finish();
}

void encode_error(const Error& error, FrameBytes& out) {
    Writer w(out, FrameKind::Error);
    w.error(error);
    w.finish();
}

void encode_end(FrameBytes& out) {
    Writer w(out, FrameKind::End);
    w.finish();
}

}  // namespace apcgate::collectors::ctf
