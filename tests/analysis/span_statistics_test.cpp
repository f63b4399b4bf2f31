// Span statistics: what opens and closes a span, instants and markers, names without XRay's
// arguments, and percentiles from the bounded histogram against exact ones.
#include "daemon/analysis/span_statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "daemon/analysis/duration_histogram.hpp"

namespace apcgate::daemon::analysis {
namespace {

model::Annotation text_on(std::int64_t ts, std::int32_t channel, std::string text) {
    return model::Annotation{ts, 0, 1,
                             model::StringAnnotation{channel, std::nullopt, std::move(text)}};
}
model::Annotation channel_name(std::int32_t channel, std::string name) {
    return model::Annotation{0, 0, 1, model::ChannelName{channel, 1, std::move(name)}};
}

TEST(SpanName, DropsXRayArgumentsOnly) {
    EXPECT_EQ(span_name("with_arg(long) [42]"), "with_arg(long)");
    EXPECT_EQ(span_name("f(int, long) [1, -2, 3]"), "f(int, long)");
    EXPECT_EQ(span_name("operator[]"), "operator[]");
    EXPECT_EQ(span_name("vec::operator[](unsigned long)"), "vec::operator[](unsigned long)");
    EXPECT_EQ(span_name("label [not args]"), "label [not args]");
    EXPECT_EQ(span_name("plain  "), "plain");
}

TEST(SpanStatistics, EmptyAnnotationOrNextTextClosesTheChannelsSpan) {
    SpanStatistics s;
    s.annotation(text_on(100, 1, "a [1]"));
    s.annotation(text_on(150, 1, ""));  // a: 50
    s.annotation(text_on(200, 1, "a [2]"));
    s.annotation(text_on(300, 1, "b"));  // a: 100, b opens
    s.annotation(text_on(250, 2, "c"));  // another channel
    s.annotation(text_on(400, 2, ""));   // c: 150
    s.annotation(text_on(500, 1, ""));   // b: 200
    s.annotation(text_on(600, 3, ""));   // closes nothing
    s.finish(1000);
    Report r;
    s.fill(r);
    ASSERT_EQ(r.spans.size(), 3u);
    EXPECT_EQ(r.spans[0].name, "b");  // sorted by total, then name
    EXPECT_EQ(r.spans[0].total_ns, 200);
    EXPECT_EQ(r.spans[1].name, "a");
    EXPECT_EQ(r.spans[1].count, 2u);
    EXPECT_EQ(r.spans[1].total_ns, 150);
    EXPECT_EQ(r.spans[1].min_ns, 50);
    EXPECT_EQ(r.spans[1].max_ns, 100);
    EXPECT_EQ(r.spans[2].name, "c");
    EXPECT_EQ(r.spans[2].total_ns, 150);
    EXPECT_TRUE(r.losses.empty());
}

TEST(SpanStatistics, ZeroLengthNotesOnEventsChannelsAreInstants) {
    SpanStatistics s;
    s.annotation(channel_name(7, "events"));
    s.annotation(channel_name(8, "depth 0"));
    for (int i = 0; i < 3; ++i) {
        s.annotation(text_on(std::int64_t{10} * i, 7, "custom: hi"));
        s.annotation(text_on(std::int64_t{10} * i, 7, ""));
    }
    s.annotation(text_on(50, 8, "zero"));  // zero-length, but a span channel: a span
    s.annotation(text_on(50, 8, ""));
    s.annotation(model::Annotation{60, 0, 1, model::MarkerAnnotation{std::nullopt, "mark"}});
    s.annotation(model::Annotation{70, 0, 1, model::TextAnnotation{std::nullopt, "log line\n"}});
    s.finish(100);
    Report r;
    s.fill(r);
    ASSERT_EQ(r.spans.size(), 1u);
    EXPECT_EQ(r.spans[0].name, "zero");
    EXPECT_EQ(r.spans[0].total_ns, 0);
    ASSERT_EQ(r.instants.size(), 3u);
    EXPECT_EQ(r.instants[0].name, "custom: hi");
    EXPECT_EQ(r.instants[0].kind, "instant");
    EXPECT_EQ(r.instants[0].count, 3u);
    std::set<std::pair<std::string, std::string>> rest = {{r.instants[1].kind, r.instants[1].name},
                                                          {r.instants[2].kind, r.instants[2].name}};
    EXPECT_EQ(rest, (std::set<std::pair<std::string, std::string>>{{"marker", "mark"},
                                                                   {"text", "log line"}}));
}

TEST(SpanStatistics, NotesOnEventsChannelsThatLastAreSpans) {
    SpanStatistics s;
    s.annotation(channel_name(7, "events"));
    s.annotation(text_on(10, 7, "long [1]"));
    s.annotation(text_on(40, 7, "short"));  // long: 30
    s.annotation(text_on(40, 7, ""));       // short: zero length, an instant
    s.annotation(text_on(50, 7, "open"));   // closed at the end: 50
    s.annotation(text_on(60, 8, "long [2]"));
    s.annotation(channel_name(8, "events"));  // named after its span opened
    s.annotation(text_on(60, 8, ""));         // zero length on an "events" channel: an instant
    s.finish(100);
    Report r;
    s.fill(r);
    ASSERT_EQ(r.spans.size(), 2u);
    EXPECT_EQ(r.spans[0].name, "open");
    EXPECT_EQ(r.spans[0].total_ns, 50);
    EXPECT_EQ(r.spans[1].name, "long");
    EXPECT_EQ(r.spans[1].total_ns, 30);
    ASSERT_EQ(r.instants.size(), 2u);
    EXPECT_EQ(r.instants[0].name, "long");
    EXPECT_EQ(r.instants[1].name, "short");
    EXPECT_EQ(r.instants[1].kind, "instant");
    EXPECT_EQ(r.losses[AnalysisStat::SpansOpenAtEnd], 1u);
}

TEST(SpanStatistics, SpansOpenAtTheEndCloseAtTheLastTimestampAndAreCounted) {
    SpanStatistics s;
    s.annotation(text_on(100, 1, "open"));
    s.finish(400);
    Report r;
    s.fill(r);
    ASSERT_EQ(r.spans.size(), 1u);
    EXPECT_EQ(r.spans[0].total_ns, 300);
    ASSERT_EQ(r.losses.values().size(), 1u);
    EXPECT_EQ(r.losses.values()[0].spec->name, "spans_open_at_end");
    EXPECT_EQ(r.losses[AnalysisStat::SpansOpenAtEnd], 1u);
}

TEST(DurationHistogram, SmallDurationsAreExact) {
    DurationHistogram h;
    for (int v : {3, 1, 2, 5, 4}) h.add(v);
    EXPECT_EQ(h.count(), 5u);
    EXPECT_EQ(h.total(), 15);
    EXPECT_EQ(h.min(), 1);
    EXPECT_EQ(h.max(), 5);
    EXPECT_EQ(h.quantile(0.5), 3);
    EXPECT_EQ(h.quantile(0.9), 5);
    EXPECT_EQ(h.quantile(0.2), 1);
}

TEST(DurationHistogram, PercentilesAreWithinTheDocumentedRelativeError) {
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> dist(10.0, 2.0);  // a few ns to many ms
    std::vector<std::int64_t> values;
    DurationHistogram h;
    for (int i = 0; i < 100000; ++i) {
        const auto v = static_cast<std::int64_t>(dist(rng));
        values.push_back(v);
        h.add(v);
    }
    std::sort(values.begin(), values.end());
    for (double q : {0.01, 0.5, 0.9, 0.99, 0.999, 1.0}) {
        const auto rank =
            static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
        const double exact = static_cast<double>(values[rank - 1]);
        const double got = static_cast<double>(h.quantile(q));
        EXPECT_LE(std::fabs(got - exact), exact / 64.0 + 1.0) << "q " << q;
    }
    EXPECT_EQ(h.min(), values.front());
    EXPECT_EQ(h.max(), values.back());
}

TEST(DurationHistogram, BucketsCoverEveryValueOnce) {
    for (std::uint64_t v :
         {0ull, 31ull, 32ull, 63ull, 64ull, 65ull, 1000ull, 123456789ull, (1ull << 62) + 12345}) {
        const auto b = DurationHistogram::bucket_of(v);
        EXPECT_LE(DurationHistogram::lower_bound(b), v);
        EXPECT_LT(v - DurationHistogram::lower_bound(b), DurationHistogram::width(b));
    }
}

}  // namespace
}  // namespace apcgate::daemon::analysis
