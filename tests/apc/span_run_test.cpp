// model::SpanRun must encode to exactly the bytes of the Annotation events it stands for: the
// same frames, splits, truncations and clamped timestamps, and the same counts.
#include <gtest/gtest.h>

#include <string>

#include "protocol/apc/encoder.hpp"
#include "tests/apc/apc_test_support.hpp"

namespace apcgate::apc {
namespace {

using testing::CollectSink;

struct Encoded {
    std::vector<testing::Bytes> frames;
    EncoderStats stats;
};

Encoded encode(const std::vector<model::Event>& events, std::size_t cap) {
    const model::CounterCatalog catalog = testing::test_catalog();
    const model::CaptureCounters counters = model::CaptureCounters::assign(catalog, {});
    CollectSink sink;
    Encoder enc(counters, sink, EncoderOptions{cap});
    enc.summary(SummaryInfo{});
    for (const auto& e : events) enc.add(e);
    enc.flush();
    return {sink.frames, enc.stats()};
}

// Runs of spans of every shape the fast path must hand over: empty ends, texts near and over
// the int16 limit, negative and large values, a timestamp going back (clamped), many items.
std::vector<model::Event> sample_runs() {
    std::vector<model::Event> events;
    model::SpanRun run;
    std::int64_t ts = 1'000'000'000;
    for (int i = 0; i < 3000; ++i) {
        // Sizes, cores and tids on both sides of the packed encoding's byte boundaries (64, 128).
        const std::string text = i % 2 == 1
                                     ? std::string()
                                     : "function_" + std::to_string(i) +
                                           std::string(static_cast<std::size_t>(i % 131), 'x');
        const int tid = i % 3 == 0 ? 70 + i % 60 : 1000 + i % 3;
        run.add(ts, i % 5 == 4 ? 100 : i % 4, tid, i % 9, text);
        ts += (i % 5 == 0) ? 0 : 1 + (i * 7919) % 100'000;
        if (i == 1500) {
            events.emplace_back(std::move(run));
            run = model::SpanRun{};
            events.emplace_back(model::Idle{ts, 0, -1});  // something else between two runs
        }
    }
    run.add(ts / 2, -1, -7, -3, "back in time, negative ids");
    run.add(ts, 70000, 1 << 30, 1 << 20, std::string(32767, 'a'));  // the longest text whole
    run.add(ts, 1, 1, 1, std::string(40000, 'b'));                  // cut to 32767 bytes
    run.add(ts + 1, 1, 1, 1, "é" + std::string(32766, 'c'));        // cut before a split character
    run.add(ts + 2, 1, 1, 1, "");
    // Times around the 8-byte fast encoding's limit (2^55) and beyond it.
    for (std::int64_t t :
         {(std::int64_t{1} << 55) - 1, std::int64_t{1} << 55, (std::int64_t{1} << 62) + 12345})
        run.add(t, 3, 3, 3, "far");
    events.emplace_back(std::move(run));
    return events;
}

TEST(SpanRun, EncodesLikeTheAnnotationsItStandsFor) {
    const std::vector<model::Event> runs = sample_runs();
    std::vector<model::Event> single = runs;
    model::expand_span_runs(single);
    ASSERT_GT(single.size(), 3000U);
    // Small caps split annotations and fill frames at every offset; large ones take many items
    // per frame.
    for (std::size_t cap : {64U, 100U, 257U, 4096U, 65536U, 256U * 1024U}) {
        SCOPED_TRACE(cap);
        const Encoded a = encode(runs, cap);
        const Encoded b = encode(single, cap);
        ASSERT_EQ(a.frames.size(), b.frames.size());
        for (std::size_t i = 0; i < a.frames.size(); ++i) ASSERT_EQ(a.frames[i], b.frames[i]) << i;
        EXPECT_EQ(a.stats.messages, b.stats.messages);
        EXPECT_EQ(a.stats.counts[EncoderStat::Bytes], b.stats.counts[EncoderStat::Bytes]);
        EXPECT_EQ(a.stats.counts[EncoderStat::TruncatedNames],
                  b.stats.counts[EncoderStat::TruncatedNames]);
        EXPECT_EQ(a.stats.counts[EncoderStat::SplitPayloads],
                  b.stats.counts[EncoderStat::SplitPayloads]);
        EXPECT_EQ(a.stats.counts[EncoderStat::OutOfOrder], b.stats.counts[EncoderStat::OutOfOrder]);
        EXPECT_EQ(a.stats.counts[EncoderStat::TruncatedNames], 2U);
        EXPECT_GE(a.stats.counts[EncoderStat::OutOfOrder], 1U);
    }
}

TEST(SpanRun, EncodesOnlyThePendingItems) {
    model::SpanRun run;
    run.add(10, 0, 1, 1, "emitted before");
    run.add(20, 0, 1, 1, "kept");
    run.add(30, 0, 1, 1, "");
    run.advance(1);
    EXPECT_EQ(run.front_ts(), 20);
    EXPECT_EQ(model::timestamp_of(model::Event(run)), 20);
    EXPECT_EQ(run.pending(), 2U);
    std::vector<model::Event> single{model::Event(run)};
    model::expand_span_runs(single);
    ASSERT_EQ(single.size(), 2U);
    const Encoded a = encode({model::Event(run)}, 4096);
    const Encoded b = encode(single, 4096);
    EXPECT_EQ(a.frames, b.frames);
    const auto& first = std::get<model::Annotation>(single[0]);
    EXPECT_EQ(first.ts, 20);
    EXPECT_EQ(std::get<model::StringAnnotation>(first.body).text, "kept");
}

// The texts grow past what was reserved without losing any, and a copied run (an event copied
// by value) owns texts equal to the original's, while a moved-from one is left empty.
TEST(SpanRun, TextsGrowCopyAndMove) {
    model::SpanRun run;
    run.texts.reserve(8);
    std::string expected;
    for (int i = 0; i < 500; ++i) {
        const std::string text(static_cast<std::size_t>(i % 41), static_cast<char>('a' + i % 26));
        run.add(i, 0, 1, 1, text);
        expected += text;
    }
    EXPECT_EQ(run.texts.view(), expected);
    EXPECT_EQ(run.text(run.items[40]), std::string(40, static_cast<char>('a' + 40 % 26)));
    model::SpanRun copy = run;
    EXPECT_EQ(copy.texts.view(), expected);
    EXPECT_NE(copy.texts.data(), run.texts.data());
    copy = copy;  // self-assignment keeps the texts
    EXPECT_EQ(copy.texts.view(), expected);
    model::SpanRun moved = std::move(run);
    EXPECT_EQ(moved.texts.view(), expected);
    EXPECT_TRUE(run.texts.empty());  // NOLINT(bugprone-use-after-move): the state is specified
    run.add(1, 0, 1, 1, "again");
    EXPECT_EQ(run.texts.view(), "again");
    const Encoded a = encode({model::Event(copy)}, 4096);
    const Encoded b = encode({model::Event(moved)}, 4096);
    EXPECT_EQ(a.frames, b.frames);
}

TEST(SpanRun, AnEmptyRunWritesNothing) {
    const Encoded a = encode({model::Event(model::SpanRun{})}, 4096);
    const Encoded none = encode({}, 4096);
    EXPECT_EQ(a.frames, none.frames);
}

}  // namespace
}  // namespace apcgate::apc
