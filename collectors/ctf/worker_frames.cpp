// The frame codec of worker_frames.hpp (the layout is there): the encoder appends raw
// little-endian fields with memcpy (the child's cost is what bounds a conversion); the decoder
// reads them back with wire::ByteReader and checks every count, key and text slice.
#include "collectors/ctf/worker_frames.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::ctf {

static_assert(std::endian::native == std::endian::little, "frames are written in host order");

namespace {

enum Tag : std::uint8_t {
    kCounterSample = 1,
    kActivitySwitch,
    kThreadName,
    kProcComm,
    kTaskExit,
    kSchedSwitch,
    kStringAnnotation,
    kMarkerAnnotation,
    kGroupName,
    kChannelName,
};

// Appends fields to a frame through a cursor: the buffer grows (without zeroing) when reserve()
// says so, and put() only copies. The length is filled in by finish().
class Writer {
  public:
    Writer(FrameBytes& out, FrameKind kind) : out_(out), start_(out.size()), pos_(start_) {
        reserve(kFrameHeaderBytes);
        pos_ += 4;
        put(static_cast<std::uint8_t>(kind));
    }
    // Room for `n` more bytes.
    void reserve(std::size_t n) {
        if (out_.size() - pos_ < n) out_.resize(std::max(pos_ + n, out_.size() * 2));
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
    FrameBytes& out_;
    std::size_t start_;
    std::size_t pos_;
};

// The most any event writes besides its strings (ProcComm: 1 + 8 + 4 * 4 + two lengths).
constexpr std::size_t kMaxFixedEventBytes = 48;

bool put_annotation(Writer& w, const model::Annotation& a) {
    const auto head = [&](Tag tag) {
        w.put(tag);
        w.put(a.ts);
        w.put(a.core);
        w.put(a.tid);
    };
    if (const auto* s = std::get_if<model::StringAnnotation>(&a.body)) {
        head(kStringAnnotation);
        w.put(s->channel);
        w.color(s->color);
        w.str(s->text);
    } else if (const auto* m = std::get_if<model::MarkerAnnotation>(&a.body)) {
        head(kMarkerAnnotation);
        w.color(m->color);
        w.str(m->text);
    } else if (const auto* g = std::get_if<model::GroupName>(&a.body)) {
        head(kGroupName);
        w.put(g->group);
        w.str(g->name);
    } else if (const auto* c = std::get_if<model::ChannelName>(&a.body)) {
        head(kChannelName);
        w.put(c->channel);
        w.put(c->group);
        w.str(c->name);
    } else {
        return false;  // the CTF mappers make no other annotation body
    }
    return true;
}

bool put_event(Writer& w, const model::Event& e) {
    w.reserve(kMaxFixedEventBytes);
    if (const auto* c = std::get_if<model::CounterSample>(&e)) {
        w.put(kCounterSample);
        w.put(c->ts);
        w.put(c->core);
        w.put(c->key);
        w.put(c->value);
        w.put(c->pid);
    } else if (const auto* a = std::get_if<model::Annotation>(&e)) {
        return put_annotation(w, *a);
    } else if (const auto* s = std::get_if<model::ActivitySwitch>(&e)) {
        w.put(kActivitySwitch);
        w.put(s->ts);
        w.put(s->core);
        w.put(s->key);
        w.put(s->activity);
        w.put(s->tid);
        w.put(static_cast<std::int32_t>(s->wait));
    } else if (const auto* t = std::get_if<model::ThreadName>(&e)) {
        w.put(kThreadName);
        w.put(t->ts);
        w.put(t->core);
        w.put(t->tid);
        w.str(t->name);
    } else if (const auto* p = std::get_if<model::ProcComm>(&e)) {
        w.put(kProcComm);
        w.put(p->ts);
        w.put(p->core);
        w.put(p->pid);
        w.put(p->tid);
        w.str(p->image);
        w.str(p->comm);
    } else if (const auto* x = std::get_if<model::TaskExit>(&e)) {
        w.put(kTaskExit);
        w.put(x->ts);
        w.put(x->tid);
    } else if (const auto* ss = std::get_if<model::SchedSwitch>(&e)) {
        w.put(kSchedSwitch);
        w.put(ss->ts);
        w.put(ss->core);
        w.put(ss->tid);
        w.put(static_cast<std::int32_t>(ss->state));
    } else {
        return false;  // the CTF mappers make no other event kind
    }
    return true;
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
    w.finish();
}

void encode_chunk(const Chunk& chunk, FrameBytes& out) {
    Writer w(out, FrameKind::Chunk);
    // Most events are 20-40 bytes: one growth for the whole frame, most of the time.
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
    for (const auto& e : chunk.events) written += put_event(w, e) ? 1 : 0;
    w.patch(count_at, written);
    w.str(chunk.texts.bytes());
    const auto& slices = chunk.texts.slices();
    w.reserve(4 + slices.size() * 12);
    w.put(static_cast<std::uint32_t>(slices.size()));
    for (const auto& s : slices) {
        w.put(static_cast<std::uint32_t>(s.event));
        w.put(static_cast<std::uint32_t>(s.offset));
        w.put(static_cast<std::uint32_t>(s.length));
    }
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
