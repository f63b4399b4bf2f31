// See message_parser.hpp for the payload layouts.
#include "collectors/annotate/message_parser.hpp"

#include <algorithm>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::annotate {

std::uint32_t colour_from_bytes(std::span<const std::uint8_t, 4> b) {
    return static_cast<std::uint32_t>(b[0]) << 8 | static_cast<std::uint32_t>(b[1]) << 16 |
           static_cast<std::uint32_t>(b[2]) << 24 | static_cast<std::uint32_t>(b[3]);
}

namespace {

// The field readers every layout is made of, over one ByteReader (first error sticks).
class PayloadReader {
  public:
    PayloadReader(const MessageRecord& m)
        : r_(m.head, wire::Endian::Little, m.offset + kMessageHeaderBytes) {
        r_.set_record(std::string(code_name(m.code)) + " message");
        r_.set_whole_record();  // the tokenizer framed it by its length
    }

    std::int64_t time(std::string_view field = "time") { return r_.packed64(field); }
    std::int32_t p32(std::string_view field) { return r_.packed32(field); }
    std::int64_t p64(std::string_view field) { return r_.packed64(field); }
    std::uint32_t colour(std::string_view field = "colour") {
        const auto b = r_.bytes(4, field);
        return b.size() == 4 ? colour_from_bytes(b.first<4>()) : 0;
    }
    // UTF-8 to the end of the payload.
    std::string text(std::string_view field = "text") {
        const auto b = r_.bytes(r_.remaining(), field);
        return {b.begin(), b.end()};
    }
    // UTF-8 ending in a NUL; `why_missing` explains a missing NUL.
    std::string cstr(std::string_view field, std::string_view why_missing = {}) {
        if (!r_.ok()) return {};
        const auto rest = r_.rest();
        const auto nul = std::find(rest.begin(), rest.end(), std::uint8_t{0});
        if (nul == rest.end()) {
            r_.fail(why_missing.empty() ? "no NUL terminator" : std::string(why_missing), field);
            return {};
        }
        const auto b = r_.bytes(static_cast<std::size_t>(nul - rest.begin()), field);
        r_.skip(1, field);
        return {b.begin(), b.end()};
    }
    // A p32 count of items that each take at least `min_item_bytes` of what is left.
    std::int32_t count(std::string_view field, std::size_t min_item_bytes) {
        const std::size_t at = r_.pos();
        const std::int32_t n = r_.packed32(field);
        if (!r_.ok()) return 0;
        if (n < 0 || static_cast<std::size_t>(n) > r_.remaining() / min_item_bytes) {
            r_.seek(at);
            r_.fail("count " + std::to_string(n) + " does not fit the " +
                        std::to_string(r_.remaining()) + " bytes left",
                    field);
            return 0;
        }
        return n;
    }
    std::vector<std::int32_t> deps() {
        std::vector<std::int32_t> out;
        const std::int32_t n = count("dependency count", 1);
        for (std::int32_t i = 0; i < n && r_.ok(); ++i) out.push_back(r_.packed32("dependency"));
        return out;
    }
    [[nodiscard]] std::size_t pos() const { return r_.pos(); }

    template <typename T>
    Result<AnnotationMessage> done(T&& msg) {
        if (!r_.ok()) return r_.take_error();
        return AnnotationMessage{std::forward<T>(msg)};
    }

  private:
    wire::ByteReader r_;
};

Result<AnnotationMessage> parse_counter(PayloadReader& p) {
    CounterMsg c;
    c.id = p.p32("id");
    c.per_cpu = p.p32("per_cpu");
    c.counter_class = p.p32("class");
    c.display = p.p32("display");
    c.modifier = p.p32("modifier");
    c.series_composition = p.p32("series_composition");
    c.rendering_type = p.p32("rendering_type");
    c.average_selection = p.p32("average_selection");
    c.average_cores = p.p32("average_cores");
    c.percentage = p.p32("percentage");
    c.activity_count = p.count("activity_count", 5);  // each: at least a NUL and a colour
    c.cores = p.p32("cores");
    c.colour = p.colour();
    for (std::int32_t i = 0; i < c.activity_count; ++i) {
        CounterActivity a;
        a.name = p.cstr("activity name");
        a.colour = p.colour("activity colour");
        c.activities.push_back(std::move(a));
    }
    c.title = p.cstr("title");
    c.name = p.cstr("name");
    c.units = p.cstr("units");
    c.description = p.text("description");
    return p.done(std::move(c));
}

Result<AnnotationMessage> parse_cam(Code code, PayloadReader& p) {
    switch (code) {
        case Code::CamTrack: {
            CamTrackMsg t;
            t.view = p.p32("view");
            t.track = p.p32("track");
            t.parent = p.p32("parent");
            t.name = p.text("name");
            return p.done(std::move(t));
        }
        case Code::CamJob: {
            CamJobMsg j;
            j.view = p.p32("view");
            j.job = p.p32("job");
            j.track = p.p32("track");
            j.start = p.p64("start");
            j.duration = p.p64("duration");
            j.colour = p.colour();
            j.primary_dep = p.p32("primary_dep");
            j.deps = p.deps();
            j.name = p.text("name");
            return p.done(std::move(j));
        }
        case Code::CamViewName: {
            CamViewNameMsg v;
            v.view = p.p32("view");
            v.name = p.text("name");
            return p.done(std::move(v));
        }
        case Code::CamJobStart: {
            CamJobStartMsg s;
            s.view = p.p32("view");
            s.job = p.p32("job");
            s.track = p.p32("track");
            s.time = p.time();
            s.colour = p.colour();
            s.name = p.text("name");
            return p.done(std::move(s));
        }
        case Code::CamJobSetDeps: {
            CamJobSetDepsMsg d;
            d.view = p.p32("view");
            d.job = p.p32("job");
            d.time = p.time();
            d.primary_dep = p.p32("primary_dep");
            d.deps = p.deps();
            return p.done(std::move(d));
        }
        default: {
            CamJobStopMsg s;
            s.view = p.p32("view");
            s.job = p.p32("job");
            s.time = p.time();
            return p.done(s);
        }
    }
}

}  // namespace

Result<AnnotationMessage> parse_message(const MessageRecord& m) {
    PayloadReader p(m);
    const auto code = static_cast<Code>(m.code);
    switch (code) {
        case Code::String:
        case Code::StringColour: {
            StringMsg s;
            s.time = p.time();
            s.channel = p.p32("channel");
            if (code == Code::StringColour) s.colour = p.colour();
            s.text = p.text();
            return p.done(std::move(s));
        }
        case Code::ChannelName: {
            ChannelNameMsg c;
            c.time = p.time();
            c.channel = p.p32("channel");
            c.group = p.p32("group");
            c.name = p.text("name");
            return p.done(std::move(c));
        }
        case Code::GroupName: {
            GroupNameMsg g;
            g.time = p.time();
            g.group = p.p32("group");
            g.name = p.text("name");
            return p.done(std::move(g));
        }
        case Code::Visual: {
            VisualMsg v;
            v.time = p.time();
            const bool whole = m.head.size() == m.length;
            v.text = p.cstr("text",
                            whole ? "no NUL terminator"
                                  : "text longer than " + std::to_string(m.head.size()) + " bytes");
            v.image_bytes = m.length - static_cast<std::uint32_t>(p.pos());
            return p.done(std::move(v));
        }
        case Code::Marker:
        case Code::MarkerColour: {
            MarkerMsg k;
            k.time = p.time();
            if (code == Code::MarkerColour) k.colour = p.colour();
            k.text = p.text();
            return p.done(std::move(k));
        }
        case Code::Counter:
            return parse_counter(p);
        case Code::CounterValue: {
            CounterValueMsg v;
            v.time = p.time();
            v.core = p.p32("core");
            v.id = p.p32("id");
            v.value = p.p64("value");
            return p.done(v);
        }
        case Code::ActivitySwitch: {
            ActivitySwitchMsg a;
            a.time = p.time();
            a.core = p.p32("core");
            a.id = p.p32("id");
            a.activity = p.p32("activity");
            a.tid = p.p32("tid");
            return p.done(a);
        }
        default:
            if (m.code >= static_cast<std::uint8_t>(Code::CamTrack) && m.code <= kMaxCode)
                return parse_cam(code, p);
            return Error{ErrorKind::Malformed,
                         "unknown message code " + std::to_string(m.code),
                         {},
                         m.offset,
                         "annotation message",
                         "code",
                         {}};
    }
}

}  // namespace apcgate::collectors::annotate
