#include "daemon/analysis/span_statistics.hpp"

#include <algorithm>
#include <utility>

#include "protocol/wire/overloaded.hpp"

namespace apcgate::daemon::analysis {

namespace {

constexpr int kMarker = 0, kInstant = 1, kText = 2;
constexpr const char* kKindNames[] = {"marker", "instant", "text"};

bool is_argument_list(std::string_view args) {
    if (args.empty()) return false;
    for (const char c : args)
        if (!((c >= '0' && c <= '9') || c == ',' || c == ' ' || c == '-')) return false;
    return true;
}

std::string_view trim_end(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::string_view span_name(std::string_view text) {
    text = trim_end(text);
    if (text.size() >= 3 && text.back() == ']') {
        const auto open = text.rfind(" [");
        if (open != std::string_view::npos &&
            is_argument_list(text.substr(open + 2, text.size() - open - 3)))
            text = trim_end(text.substr(0, open));
    }
    return text;
}

void SpanStatistics::annotation(const model::Annotation& a) {
    std::visit(
        wire::Overloaded{
            [&](const model::StringAnnotation& s) { string_annotation(a.ts, s.channel, s.text); },
            [&](const model::ChannelName& c) {
                const bool events = c.name == "events";
                if (events) {
                    event_channels_.insert(c.channel);
                } else {
                    event_channels_.erase(c.channel);
                }
                if (Open* o = slot(c.channel, events)) o->events = events;
            },
            [&](const model::MarkerAnnotation& m) { instant(m.text, kMarker); },
            [&](const model::TextAnnotation& t) { instant(trim_end(t.text), kText); },
            [](const auto&) {},
        },
        a.body);
}

SpanStatistics::Open* SpanStatistics::slot(std::int32_t channel, bool create) {
    if (channel >= 0 && channel < kDenseChannels) {
        const auto i = static_cast<std::size_t>(channel);
        if (i >= dense_.size()) {
            if (!create) return nullptr;
            dense_.resize(i + 1);
        }
        return &dense_[i];
    }
    if (auto it = sparse_.find(channel); it != sparse_.end()) return &it->second;
    if (!create || sparse_.size() >= kMaxOpen) return nullptr;
    return &sparse_[channel];
}

// Names are short: a loop compares them faster than the library's memcmp call.
static bool same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

// A channel mostly carries the same span again and again (a call depth of a loop), or two in
// turn (a recursion's call and its base case at the same depth): its last two names are
// compared before the table is asked.
std::uint32_t SpanStatistics::name_id(Open& o, std::string_view text) {
    const std::string_view name = span_name(text);
    if (o.named && same_name(span_names_.name(o.name), name)) return o.name;
    if (o.other_named && same_name(span_names_.name(o.other), name)) {
        std::swap(o.name, o.other);
        return o.name;
    }
    if (o.named) {
        o.other = o.name;
        o.other_named = true;
    }
    o.named = true;
    return o.name = span_names_.id(name);
}

void SpanStatistics::open(Open* o, std::int64_t ts, std::string_view text) {
    if (o == nullptr) {
        ++open_dropped_;
        return;
    }
    // A note on an "events" channel is mostly an instant, named in the instant table only: its
    // name is kept until the close says which it is.
    o->deferred = o->events;
    if (o->deferred) {
        o->pending.assign(span_name(text));
    } else {
        name_id(*o, text);
    }
    o->ts = ts;
    o->open = true;
}

void SpanStatistics::close(Open* o, std::int32_t channel, std::int64_t ts) {
    if (o == nullptr || !o->open) return;
    o->open = false;
    const bool instant = ts == o->ts && channel >= 0 && event_channels_.contains(channel);
    if (o->deferred) {
        if (instant) {
            count_instant(instant_names_.id(o->pending), kInstant);
        } else {
            add_span(span_names_.id(o->pending), ts - o->ts);
        }
        return;
    }
    if (instant) {
        if (o->name >= instant_of_span_.size()) instant_of_span_.resize(o->name + 1, kNoInstant);
        std::uint32_t& id = instant_of_span_[o->name];
        if (id == kNoInstant) id = instant_names_.id(span_names_.name(o->name));
        count_instant(id, kInstant);
        return;
    }
    add_span(o->name, ts - o->ts);
}

void SpanStatistics::add_span(std::uint32_t name, std::int64_t duration) {
    if (name >= spans_.size()) spans_.resize(name + 1);
    spans_[name].add(duration);
}

void SpanStatistics::connection_annotation(std::int32_t connection, std::int64_t ts,
                                           std::int32_t channel, std::string_view text) {
    const std::uint64_t key = (std::uint64_t{static_cast<std::uint32_t>(connection)} << 32) |
                              static_cast<std::uint32_t>(channel);
    Open* o = nullptr;
    if (auto it = connections_.find(key); it != connections_.end()) {
        o = &it->second;
    } else if (!text.empty() && connections_.size() < kMaxOpen) {
        o = &connections_[key];
    }
    close(o, -1, ts);
    if (!text.empty()) open(o, ts, text);
}

void SpanStatistics::count_instant(std::uint32_t id, int kind) {
    auto& counts = instants_[kind];
    if (id >= counts.size()) counts.resize(id + 1, 0);
    ++counts[id];
}

void SpanStatistics::finish(std::int64_t end_ts) {
    std::vector<std::int32_t> channels;
    for (std::size_t c = 0; c < dense_.size(); ++c)
        if (dense_[c].open) channels.push_back(static_cast<std::int32_t>(c));
    for (const auto& [channel, o] : sparse_)
        if (o.open) channels.push_back(channel);
    for (const std::int32_t c : channels) {
        ++closed_at_end_;
        Open* o = slot(c, false);
        close(o, c, std::max(end_ts, o->ts));
    }
    for (auto& [key, o] : connections_) {
        if (!o.open) continue;
        ++closed_at_end_;
        close(&o, -1, std::max(end_ts, o.ts));
    }
}

void SpanStatistics::fill(Report& r) const {
    // Reserved ahead: a capture may have tens of thousands of names, and moving their rows at
    // every growth of the vectors is most of this.
    std::size_t instants = 0;
    for (const auto& counts : instants_)
        instants += static_cast<std::size_t>(
            std::count_if(counts.begin(), counts.end(), [](std::uint64_t n) { return n > 0; }));
    r.instants.reserve(r.instants.size() + instants);
    r.spans.reserve(r.spans.size() +
                    static_cast<std::size_t>(
                        std::count_if(spans_.begin(), spans_.end(),
                                      [](const DurationHistogram& h) { return h.count() > 0; })));
    for (std::size_t id = 0; id < spans_.size(); ++id) {
        const DurationHistogram& h = spans_[id];
        if (h.count() == 0) continue;
        SpanRow row;
        row.name = span_names_.name(static_cast<std::uint32_t>(id));
        row.count = h.count();
        row.total_ns = h.total();
        row.min_ns = h.min();
        row.median_ns = h.quantile(0.5);
        row.p90_ns = h.quantile(0.9);
        row.p99_ns = h.quantile(0.99);
        row.max_ns = h.max();
        r.spans.push_back(std::move(row));
    }
    std::sort(r.spans.begin(), r.spans.end(), [](const SpanRow& a, const SpanRow& b) {
        return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
    });
    for (int kind = 0; kind < kKinds; ++kind) {
        for (std::size_t id = 0; id < instants_[kind].size(); ++id) {
            if (const std::uint64_t n = instants_[kind][id]; n > 0)
                r.instants.push_back(
                    {instant_names_.name(static_cast<std::uint32_t>(id)), kKindNames[kind], n});
        }
    }
    std::sort(r.instants.begin(), r.instants.end(), [](const InstantRow& a, const InstantRow& b) {
        if (a.count != b.count) return a.count > b.count;
        return a.name != b.name ? a.name < b.name : a.kind < b.kind;
    });
    r.losses.add(AnalysisStat::SpansOpenAtEnd, closed_at_end_);
    r.losses.add(AnalysisStat::SpansNotFollowed, open_dropped_,
                 "past " + std::to_string(kMaxOpen) + " sparse channel ids");
    r.losses.add(AnalysisStat::NamesFolded, span_names_.overflowed() + instant_names_.overflowed(),
                 "past " + std::to_string(kMaxNames) + " distinct names");
}

}  // namespace apcgate::daemon::analysis
