// model::SampleRun must encode to exactly the bytes of the CounterSample and Backtrace events it
// stands for: the same frames, Block Counter blocks moved or split at the same places, the same
// clamped timestamps and the same counts.
#include <gtest/gtest.h>

#include <vector>

#include "protocol/apc/encoder.hpp"
#include "tests/apc/apc_test_support.hpp"

namespace apcgate::apc {
namespace {

using testing::CollectSink;
using testing::kBlkA;
using testing::kBlkB;
using testing::kSingleA;
using testing::kSingleB;

struct Encoded {
    std::vector<testing::Bytes> frames;
    EncoderStats stats;
};

// Encodes `events`; a SampleRun is given to the encoder in parts of `part` samples when `part`
// is not 0 (as the engine does around its event rate samples).
Encoded encode(const std::vector<model::Event>& events, std::size_t cap, std::size_t part = 0) {
    const model::CounterCatalog catalog = testing::test_catalog();
    const model::CaptureCounters counters =
        model::CaptureCounters::assign(catalog, catalog.defaults());
    CollectSink sink;
    Encoder enc(counters, sink, EncoderOptions{cap});
    enc.summary(SummaryInfo{});
    for (const auto& e : events) {
        const auto* run = std::get_if<model::SampleRun>(&e);
        if (run == nullptr || part == 0) {
            enc.add(e);
            continue;
        }
        model::SampleRun rest = *run;
        while (!rest.empty()) {
            const std::size_t n = std::min(part, rest.pending());
            enc.add(rest, n);
            rest.advance(n);
        }
    }
    enc.flush();
    return {sink.frames, enc.stats()};
}

// Runs of every shape: block values of several cores and pids in blocks of every length (up to
// more than a small frame holds), single values, PC samples (cookie 1, which the encoder
// rewrites, negative and large offsets), an unknown key, a time going back, other events
// between runs.
std::vector<model::Event> runs() {
    std::vector<model::Event> events;
    model::SampleRun run;
    std::int64_t ts = 1'000'000;
    for (int i = 0; i < 4000; ++i) {
        const std::int32_t core = i % 7 == 0 ? 200 : i % 4;
        const int values = 1 + (i * 13) % 9;
        for (int v = 0; v < values; ++v)
            run.samples.push_back({ts, (i * 104729 + v) % 300 - 20, core, v % 2 ? kBlkB : kBlkA,
                                   i % 5 == 0 ? 40 + v : -1, 0});
        if (i % 3 == 0)
            run.samples.push_back({ts, i % 11 == 0 ? -5 : 0x1000 + std::int64_t{i} * 977, core,
                                   model::kPcSampleKey, 100 + i % 70, i % 13 == 0 ? 1 : i % 4 - 1});
        if (i % 2 == 0)
            run.samples.push_back({ts + 1, std::int64_t{i} * 3, core, i % 4 ? kSingleA : kSingleB});
        if (i == 900) run.samples.push_back({ts, 1, 0, 99});  // no such key: dropped, counted
        if (i == 1000) run.samples.push_back({ts / 2, 7, 1, kBlkA});  // back in time: clamped
        if (i % 500 == 499) {
            events.emplace_back(std::move(run));
            run = model::SampleRun{};
            events.emplace_back(model::Idle{ts, 0, -1});
        }
        ts += i % 6 == 0 ? 0 : 1 + (i * 7919) % 5000;
    }
    // A block longer than a small frame: it is split.
    for (int v = 0; v < 200; ++v) run.samples.push_back({ts, v, v % 3, kBlkA});
    events.emplace_back(std::move(run));
    return events;
}

void expect_same(const Encoded& a, const Encoded& b) {
    ASSERT_EQ(a.frames.size(), b.frames.size());
    for (std::size_t i = 0; i < a.frames.size(); ++i) ASSERT_EQ(a.frames[i], b.frames[i]) << i;
    EXPECT_EQ(a.stats.messages, b.stats.messages);
    const auto av = a.stats.counts.values(), bv = b.stats.counts.values();
    for (std::size_t i = 0; i < av.size(); ++i) EXPECT_EQ(av[i].value, bv[i].value) << i;
}

TEST(SampleRun, EncodesLikeTheEventsItStandsFor) {
    const std::vector<model::Event> batched = runs();
    std::vector<model::Event> single = batched;
    model::expand_sample_runs(single);
    ASSERT_GT(single.size(), 20000U);
    for (std::size_t cap : {64U, 100U, 257U, 4096U, 256U * 1024U}) {
        SCOPED_TRACE(cap);
        const Encoded b = encode(single, cap);
        expect_same(encode(batched, cap), b);
        expect_same(encode(batched, cap, 1), b);
        expect_same(encode(batched, cap, 7), b);
        EXPECT_EQ(b.stats.counts[EncoderStat::UnknownKey], 1U);
        EXPECT_GE(b.stats.counts[EncoderStat::OutOfOrder], 1U);
        EXPECT_GE(b.stats.counts[EncoderStat::TruncatedBacktraces], 1U);
    }
}

TEST(SampleRun, StandsForCounterSamplesAndOneFrameBacktraces) {
    const model::Sample value{10, -3, 2, kBlkA, 44, 0};
    const model::Sample pc{11, 0x4242, 1, model::kPcSampleKey, 77, 5};
    const auto c = std::get<model::CounterSample>(model::single_event(value));
    EXPECT_EQ(c.ts, 10);
    EXPECT_EQ(c.core, 2);
    EXPECT_EQ(c.key, kBlkA);
    EXPECT_EQ(c.value, -3);
    EXPECT_EQ(c.pid, 44);
    const auto b = std::get<model::Backtrace>(model::single_event(pc));
    EXPECT_EQ(b.ts, 11);
    EXPECT_EQ(b.core, 1);
    EXPECT_EQ(b.exec_cookie, 5);
    EXPECT_EQ(b.pid, 77);
    EXPECT_EQ(b.tid, 77);
    ASSERT_EQ(b.frames.size(), 1U);
    EXPECT_EQ(b.frames[0].cookie, 5);
    EXPECT_EQ(b.frames[0].offset, 0x4242);
}

TEST(SampleRun, EncodesOnlyThePendingSamples) {
    model::SampleRun run;
    run.samples = {{10, 1, 0, kBlkA}, {20, 2, 0, kBlkA}, {30, 3, 1, kSingleA}};
    run.advance(1);
    EXPECT_EQ(run.front_ts(), 20);
    EXPECT_EQ(model::timestamp_of(model::Event(run)), 20);
    EXPECT_EQ(model::event_count(model::Event(run)), 2U);
    std::vector<model::Event> single{model::Event(run)};
    model::expand_sample_runs(single);
    ASSERT_EQ(single.size(), 2U);
    EXPECT_EQ(std::get<model::CounterSample>(single[0]).value, 2);
    expect_same(encode({model::Event(run)}, 4096), encode(single, 4096));
}

// A part larger than what is pending stops at the run's end.
TEST(SampleRun, APartIsBoundedByThePendingSamples) {
    model::SampleRun run;
    run.samples = {{10, 1, 0, kBlkA}, {20, 2, 0, kBlkB}};
    run.advance(1);
    const model::CounterCatalog catalog = testing::test_catalog();
    const model::CaptureCounters counters =
        model::CaptureCounters::assign(catalog, catalog.defaults());
    CollectSink sink;
    Encoder enc(counters, sink);
    enc.summary(SummaryInfo{});
    enc.add(run, 100);
    enc.flush();
    std::vector<model::Event> single{model::Event(run)};
    model::expand_sample_runs(single);
    const Encoded b = encode(single, std::size_t{256} * 1024);
    EXPECT_EQ(sink.frames, b.frames);
    EXPECT_EQ(enc.stats().messages, b.stats.messages);
}

TEST(SampleRun, AnEmptyRunWritesNothing) {
    const Encoded none = encode({}, 4096);
    expect_same(encode({model::Event(model::SampleRun{})}, 4096), none);
    model::SampleRun done;
    done.samples = {{10, 1, 0, kBlkA}};
    done.advance(1);
    expect_same(encode({model::Event(done)}, 4096), none);
}

}  // namespace
}  // namespace apcgate::apc
