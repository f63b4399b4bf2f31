// Spans and instants from the capture's annotations, as Streamline shows them: a non-empty
// string annotation on a channel opens a span that lasts until the next annotation on that
// channel (an empty one just closes it). Channel ids are unique in a capture (every converter
// and the annotation forwarder number them so), so the open span is kept per channel.
//   - The span's name is its text without trailing arguments: XRay's "f(long) [42, 7]" is
//     "f(long)" (span_name()).
//   - A zero-length span on a channel named "events" is an instant (the converters' one-off
//     notes: XRay custom events, FXT instants); markers and Log-tab text lines are counted per
//     name too.
//   - Spans still open at the end are closed at the capture's last timestamp and counted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "daemon/analysis/duration_histogram.hpp"
#include "daemon/analysis/name_table.hpp"
#include "daemon/analysis/report.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::daemon::analysis {

// The span name of an annotation text: the text without a trailing " [ARGS]" whose ARGS are
// numbers separated by ", " (what XRay's call_text appends), and without trailing blanks.
std::string_view span_name(std::string_view text);

class SpanStatistics {
  public:
    static constexpr std::size_t kMaxNames = 1u << 20;
    static constexpr std::size_t kMaxOpen = 1u << 20;  // channels with ids past the dense range

    void annotation(const model::Annotation& a);
    // A string annotation on `channel` (empty text: the end of the channel's span), as
    // annotation() takes it, without the model event (the fast path of annotate_scan.hpp).
    void string_annotation(std::int64_t ts, std::int32_t channel, std::string_view text) {
        Open* o = slot(channel, !text.empty());
        close(o, channel, ts);
        if (!text.empty()) open(o, ts, text);
    }
    // The same for a channel of an application's annotation connection (External frames):
    // such channels are numbered per connection, so they are kept apart from the capture's.
    void connection_annotation(std::int32_t connection, std::int64_t ts, std::int32_t channel,
                               std::string_view text);
    void marker(std::string_view text) { instant(text, 0); }
    // Closes what is still open at `end_ts`; call once, at the end.
    void finish(std::int64_t end_ts);

    void fill(Report& r) const;

  private:
    struct Open {
        std::uint32_t name = 0;
        std::int64_t ts = 0;
        std::uint32_t other = 0;  // the channel's span name before `name`
        bool open = false;
        bool named = false;        // `name` holds the channel's last span name
        bool other_named = false;  // `other` holds the one before
        bool events = false;       // a channel named "events"
        bool deferred = false;     // the open span's name is `pending`, not `name`
        std::string pending;
    };
    // Channel ids are small and dense in practice (every writer numbers them from 1): those
    // below kDenseChannels are kept in a vector, the rest in a map.
    static constexpr std::int32_t kDenseChannels = 1 << 16;
    Open* slot(std::int32_t channel, bool create);
    std::uint32_t name_id(Open& o, std::string_view text);
    void open(Open* o, std::int64_t ts, std::string_view text);
    // `channel`: the capture's channel id, for instants on "events" channels (-1: none).
    void close(Open* o, std::int32_t channel, std::int64_t ts);
    void add_span(std::uint32_t name, std::int64_t duration);
    void instant(std::string_view text, int kind) { count_instant(instant_names_.id(text), kind); }
    void count_instant(std::uint32_t id, int kind);

    NameTable span_names_{kMaxNames, "(other spans)"};
    std::vector<DurationHistogram> spans_;  // by span name id
    NameTable instant_names_{kMaxNames, "(other instants)"};
    static constexpr int kKinds = 3;
    std::vector<std::uint64_t> instants_[kKinds];  // per kind, by instant name id: the count
    // Instants from "events" channels are named by a span name id: its instant name id, or
    // kNoInstant (saves looking the same text up a second time).
    static constexpr std::uint32_t kNoInstant = ~std::uint32_t{0};
    std::vector<std::uint32_t> instant_of_span_;
    std::vector<Open> dense_;                              // by channel
    std::unordered_map<std::int32_t, Open> sparse_;        // other channels
    std::unordered_map<std::uint64_t, Open> connections_;  // (connection, channel)
    std::unordered_set<std::int32_t> event_channels_;      // channels named "events"
    std::uint64_t closed_at_end_ = 0;
    std::uint64_t open_dropped_ = 0;  // spans not followed: past kMaxOpen sparse channels
};

}  // namespace apcgate::daemon::analysis
