// The engine with scripted sources and an in-memory sink: sources are merged onto one timeline,
// encoded once, and decode back to what they produced; a failing source does not stop the rest.
#include "daemon/capture/capture_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "protocol/apc/decoder.hpp"
#include "protocol/apc/frame_rules.hpp"

namespace apcgate::daemon {
namespace {

class MemorySink final : public CaptureSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        frames.emplace_back(body.begin(), body.end());
        bytes += body.size() + 5;
    }
    void flush() override { ++flushes; }
    void finish() override { finished = true; }
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes; }
    std::vector<std::vector<std::uint8_t>> frames;
    std::uint64_t bytes = 0;
    int flushes = 0;
    bool finished = false;
};

// Emits one counter sample per poll at the poll time, for `key`, on `core`.
class TickSource final : public collectors::Source {
  public:
    TickSource(std::string name, model::Nanos period, int core, bool fail = false)
        : name_(std::move(name)), period_(period), core_(core), fail_(fail) {}
    [[nodiscard]] std::string_view name() const override { return name_; }
    Status start(const collectors::CaptureContext& ctx) override {
        if (fail_) return Error::at(ErrorKind::Io, "no such device");
        key_ = *ctx.counters.key("c" + std::to_string(core_));
        return {};
    }
    [[nodiscard]] model::Nanos poll_period() const override { return period_; }
    collectors::PollResult poll(model::Nanos now, std::vector<model::Event>& out) override {
        out.push_back(model::CounterSample{now, core_, key_, ++n_, -1});
        return {now, false};
    }
    void stop(model::Nanos now, std::vector<model::Event>& out) override {
        out.push_back(model::ThreadName{now, core_, 100 + core_, "bye"});
        stopped = true;
    }
    bool stopped = false;

  private:
    std::string name_;
    model::Nanos period_;
    int core_;
    bool fail_;
    model::CounterKey key_ = 0;
    std::int64_t n_ = 0;
};

// Each poll: one counter sample (a stream that fills slowly) and one 30000-byte annotation.
class BulkSource final : public collectors::Source {
  public:
    [[nodiscard]] std::string_view name() const override { return "bulk"; }
    Status start(const collectors::CaptureContext& ctx) override {
        key_ = *ctx.counters.key("c0");
        return {};
    }
    [[nodiscard]] bool recorded() const override { return true; }
    collectors::PollResult poll(model::Nanos now, std::vector<model::Event>& out) override {
        out.push_back(model::CounterSample{now, 0, key_, ++n_, -1});
        out.push_back(model::Annotation{
            now, 0, 7, model::StringAnnotation{1, std::nullopt, std::string(30000, 'a')}});
        return {now, false};
    }
    void stop(model::Nanos /*now*/, std::vector<model::Event>& /*out*/) override {}

  private:
    model::CounterKey key_ = 0;
    std::int64_t n_ = 0;
};

// A recorded input: `chunks` polls of 100 counter samples 1 us apart from `from` on, each
// poll's watermark its last sample's time. Counts its polls and what the engine got back.
class TraceSource final : public collectors::Source {
  public:
    TraceSource(model::Nanos from, int chunks, int core)
        : next_(from), chunks_(chunks), core_(core) {}
    [[nodiscard]] std::string_view name() const override { return "trace"; }
    Status start(const collectors::CaptureContext& ctx) override {
        key_ = *ctx.counters.key("c" + std::to_string(core_));
        return {};
    }
    [[nodiscard]] bool recorded() const override { return true; }
    collectors::PollResult poll(model::Nanos /*now*/, std::vector<model::Event>& out) override {
        ++polls;
        if (polls > chunks_) return {next_, true};
        for (int i = 0; i < 100; ++i, next_ += 1000)
            out.push_back(model::CounterSample{next_, core_, key_, ++n_, -1});
        return {next_ - 1000, polls == chunks_};
    }
    int polls = 0;

  private:
    model::Nanos next_;
    int chunks_;
    int core_;
    model::CounterKey key_ = 0;
    std::int64_t n_ = 0;
};

std::vector<apc::DecodedFrame> decode_all(const MemorySink& sink) {
    std::vector<apc::DecodedFrame> frames;
    for (const auto& body : sink.frames) {
        auto d = apc::decode_frame(body, 0);
        EXPECT_TRUE(d) << d.error().to_string();
        if (d) frames.push_back(std::move(d).value());
    }
    return frames;
}

std::size_t frames_of(const std::vector<apc::DecodedFrame>& frames, apc::FrameType t) {
    return static_cast<std::size_t>(std::count_if(
        frames.begin(), frames.end(), [t](const apc::DecodedFrame& f) { return f.type == t; }));
}

struct Fixture {
    model::CounterCatalog catalog;
    Fixture() {
        for (const char* n : {"c0", "c1", "c2"}) {
            model::CounterSpec spec;
            spec.counter = n;
            spec.category = "T";
            catalog.add(spec);
        }
    }
    CapturePlan plan(std::vector<collectors::Source*> sources) {
        CapturePlan p;
        p.counters = model::CaptureCounters::assign(catalog, catalog.defaults());
        p.sources = std::move(sources);
        p.settings.live_rate_ms = 100;
        return p;
    }
};

TEST(CaptureEngine, MergesSourcesAndEncodesEverythingOnce) {
    Fixture f;
    TickSource fast("fast", 10'000'000, 0), slow("slow", 40'000'000, 1);
    MemorySink sink;
    CaptureEngine engine(f.plan({&fast, &slow}), sink);
    ASSERT_TRUE(engine.start());
    ASSERT_EQ(sink.frames.size(), 1U);  // the Summary goes out at once
    for (model::Nanos t = 0; t <= 200'000'000; t += 10'000'000) {
        engine.poll_due(t);
        if (t % 100'000'000 == 0) engine.flush(t);
    }
    engine.finish(205'000'000);
    EXPECT_TRUE(sink.finished);
    EXPECT_TRUE(fast.stopped && slow.stopped);

    std::vector<apc::DecodedFrame> frames;
    for (const auto& body : sink.frames) {
        auto d = apc::decode_frame(body, 0);
        ASSERT_TRUE(d) << d.error().to_string();
        frames.push_back(std::move(d).value());
    }
    std::vector<model::CounterKey> keys;
    for (const auto& k : engine.plan().counters.enabled()) keys.push_back(k.key);
    EXPECT_TRUE(apc::check_frame_rules(frames, keys, 2).empty());  // cores 0 and 1
    auto events = apc::rebuild_events(frames);
    ASSERT_TRUE(events);
    int fast_n = 0, slow_n = 0, byes = 0;
    model::Nanos last = -1;
    for (const auto& e : *events) {
        if (const auto* s = std::get_if<model::CounterSample>(&e)) {
            (s->core == 0 ? fast_n : slow_n)++;
            EXPECT_GE(s->ts, last);  // one timeline
            last = s->ts;
        }
        if (std::holds_alternative<model::ThreadName>(e)) ++byes;
    }
    EXPECT_EQ(fast_n, 22);  // 21 polls on the 10 ms grid plus the final one
    EXPECT_EQ(slow_n, 7);   // 0, 40 .. 200 ms, plus the final one
    EXPECT_EQ(byes, 2);
}

// A conversion's loop: frames leave as they fill, the slow streams' open frames every
// kSendOpenFrames bytes, not after every poll; everything arrives once and in order.
TEST(CaptureEngine, EncodeReadySendsFullFramesAndOpenOnesEveryFewMiB) {
    Fixture f;
    BulkSource bulk;
    MemorySink sink;
    CaptureEngine engine(f.plan({&bulk}), sink);
    ASSERT_TRUE(engine.start());
    for (model::Nanos i = 0; i < 10; ++i) {
        engine.poll_behind(i * 1'000'000);
        engine.encode_ready();
    }
    // 300000 annotation bytes: one full Annotate frame went; the counters wait in their frame.
    auto frames = decode_all(sink);
    EXPECT_EQ(frames_of(frames, apc::FrameType::Annotate), 1U);
    EXPECT_EQ(frames_of(frames, apc::FrameType::BlockCounter), 0U);
    const model::Nanos polls = 300;  // about 9 MB: past kSendOpenFrames twice
    for (model::Nanos i = 10; i < polls; ++i) {
        engine.poll_behind(i * 1'000'000);
        engine.encode_ready();
    }
    frames = decode_all(sink);
    EXPECT_EQ(frames_of(frames, apc::FrameType::BlockCounter), 2U);
    EXPECT_LT(frames.size(), static_cast<std::size_t>(polls) / 5);
    engine.finish(polls * 1'000'000);

    frames = decode_all(sink);
    std::vector<model::CounterKey> keys;
    for (const auto& k : engine.plan().counters.enabled()) keys.push_back(k.key);
    EXPECT_TRUE(apc::check_frame_rules(frames, keys, 1).empty());  // core 0
    auto events = apc::rebuild_events(frames);
    ASSERT_TRUE(events);
    int samples = 0, annotations = 0;
    for (const auto& e : *events) {
        if (std::holds_alternative<model::CounterSample>(e)) ++samples;
        if (const auto* a = std::get_if<model::Annotation>(&e)) {
            const auto* s = std::get_if<model::StringAnnotation>(&a->body);
            ASSERT_NE(s, nullptr);
            EXPECT_EQ(s->text.size(), 30000U);
            ++annotations;
        }
    }
    EXPECT_EQ(samples, polls + 1);  // and the final poll's
    EXPECT_EQ(annotations, polls + 1);
}

// Two inputs of different times (the second begins after the first ends): the later one is
// read only as far as its first poll until the earlier one has caught up, so its events do
// not pile up in the merger; the timer's poll_due() leaves recorded sources alone.
TEST(CaptureEngine, PollBehindReadsOnlyTheInputTheMergeWaitsFor) {
    Fixture f;
    TraceSource early(0, 20, 0), late(1'000'000'000, 20, 1);
    MemorySink sink;
    CaptureEngine engine(f.plan({&late, &early}), sink);
    ASSERT_TRUE(engine.start());
    engine.poll_due(5'000'000'000);
    EXPECT_EQ(early.polls + late.polls, 0);
    EXPECT_EQ(engine.next_poll(), collectors::kNever);
    EXPECT_TRUE(engine.recorded_running());

    int late_polls_while_early_ran = 0;
    while (!engine.sources_finished()) {
        engine.poll_behind(0);
        engine.encode_ready();
        if (early.polls < 20) late_polls_while_early_ran = late.polls;
    }
    EXPECT_FALSE(engine.recorded_running());
    EXPECT_EQ(late_polls_while_early_ran, 1);  // the first poll, before any watermark was known
    EXPECT_EQ(early.polls, 20);
    EXPECT_EQ(late.polls, 20);
    engine.finish(0);

    auto events = apc::rebuild_events(decode_all(sink));
    ASSERT_TRUE(events);
    int samples = 0;
    model::Nanos last = -1;
    for (const auto& e : *events) {
        if (const auto* s = std::get_if<model::CounterSample>(&e)) {
            EXPECT_GE(s->ts, last);
            last = s->ts;
            ++samples;
        }
    }
    EXPECT_EQ(samples, 4000);
}

// Inputs of one run interleave: each poll goes to whichever is behind.
TEST(CaptureEngine, PollBehindAlternatesBetweenInterleavedInputs) {
    Fixture f;
    TraceSource a(0, 10, 0), b(50'000, 10, 1);  // b starts half a chunk after a
    MemorySink sink;
    CaptureEngine engine(f.plan({&a, &b}), sink);
    ASSERT_TRUE(engine.start());
    engine.poll_behind(0);
    EXPECT_EQ(a.polls, 1);
    EXPECT_EQ(b.polls, 1);
    for (int i = 0; i < 6; ++i) {
        engine.poll_behind(0);
        EXPECT_LE(std::abs(a.polls - b.polls), 1);
    }
    engine.finish(0);
}

TEST(CaptureEngine, AFailingSourceIsReportedAndTheOthersRun) {
    Fixture f;
    TickSource ok("ok", 10'000'000, 0), broken("broken", 10'000'000, 1, true);
    MemorySink sink;
    CaptureEngine engine(f.plan({&broken, &ok}), sink);
    ASSERT_TRUE(engine.start());
    engine.poll_due(0);
    engine.finish(1);
    const auto totals = engine.totals();
    ASSERT_EQ(totals.failed_sources.size(), 1U);
    EXPECT_NE(totals.failed_sources[0].find("broken: no such device"), std::string::npos);
    EXPECT_GT(totals.events, 0U);
}

TEST(CaptureEngine, FailsWhenNoSourceStarts) {
    Fixture f;
    TickSource broken("broken", 10'000'000, 1, true);
    MemorySink sink;
    CaptureEngine engine(f.plan({&broken}), sink);
    const Status st = engine.start();
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("no source could start"), std::string::npos);
}

TEST(CaptureEngine, BufferedModeReportsFull) {
    Fixture f;
    TickSource fast("fast", 10'000'000, 0);
    MemorySink sink;
    CapturePlan plan = f.plan({&fast});
    plan.settings.buffer_mode = model::BufferMode::Small;
    CaptureEngine engine(std::move(plan), sink);
    ASSERT_TRUE(engine.start());
    EXPECT_FALSE(engine.buffer_full());
    sink.bytes = model::buffer_mode_bytes(model::BufferMode::Small);
    EXPECT_TRUE(engine.buffer_full());
}

// A recorded input of annotations only (spans, notes: no counter, no activity), all in one
// poll: two single annotations, then a SpanRun of four.
class SpansOnlySource final : public collectors::Source {
  public:
    explicit SpansOnlySource(bool empty) : empty_(empty) {}
    [[nodiscard]] std::string_view name() const override { return "spans"; }
    Status start(const collectors::CaptureContext& /*ctx*/) override { return {}; }
    [[nodiscard]] bool recorded() const override { return true; }
    collectors::PollResult poll(model::Nanos /*now*/, std::vector<model::Event>& out) override {
        if (empty_) return {0, true};
        for (model::Nanos ts : {100'000, 500'000})
            out.push_back(
                model::Annotation{ts, 0, 7, model::StringAnnotation{1, std::nullopt, "x"}});
        model::SpanRun run;
        for (model::Nanos ts : {2'300'000, 2'400'000, 5'000'000, 5'100'000})
            run.add(ts, 0, 7, 2, ts % 200'000 == 0 ? "" : "f");
        out.emplace_back(std::move(run));
        return {5'100'000, true};
    }

  private:
    bool empty_;
};

// Counter samples of `key`, as (ts, value), from a finished capture.
std::vector<std::pair<model::Nanos, std::int64_t>> samples_of(const MemorySink& sink,
                                                              model::CounterKey key) {
    std::vector<std::pair<model::Nanos, std::int64_t>> out;
    auto events = apc::rebuild_events(decode_all(sink));
    EXPECT_TRUE(events);
    if (!events) return out;
    for (const auto& e : *events)
        if (const auto* s = std::get_if<model::CounterSample>(&e); s && s->key == key)
            out.emplace_back(s->ts, s->value);
    return out;
}

// Such a capture holds no Activity, Counter or Block Counter message of its own; the capture's
// event rate gives it real ones ("Required Messages"): each millisecond's count at its end, in
// timeline order, adding up to every annotation (a SpanRun's one by one, each in its own
// millisecond).
TEST(CaptureEngine, TheEventRateMakesASpansOnlyCaptureValid) {
    model::CounterCatalog catalog;
    EventRateCounter::declare(catalog);
    SpansOnlySource spans(false);
    CapturePlan plan;
    plan.counters = model::CaptureCounters::assign(catalog, catalog.defaults());
    plan.sources = {&spans};
    const auto key = plan.counters.key(EventRateCounter::kCounter);
    ASSERT_TRUE(key);
    MemorySink sink;
    CaptureEngine engine(std::move(plan), sink);
    ASSERT_TRUE(engine.start());
    while (engine.recorded_running()) {
        engine.poll_behind(0);
        engine.encode_ready();
    }
    engine.finish(0);
    const auto frames = decode_all(sink);
    EXPECT_TRUE(apc::check_frame_rules(frames, {*key}, 1).empty());
    const std::vector<std::pair<model::Nanos, std::int64_t>> want{
        {1'000'000, 2}, {3'000'000, 2}, {6'000'000, 2}};
    EXPECT_EQ(samples_of(sink, *key), want);

    // Without the counter the same capture breaks the rule: the check sees it.
    SpansOnlySource again(false);
    CapturePlan bare;
    bare.sources = {&again};
    MemorySink bare_sink;
    CaptureEngine bare_engine(std::move(bare), bare_sink);
    ASSERT_TRUE(bare_engine.start());
    bare_engine.poll_behind(0);
    bare_engine.finish(0);
    const auto violations = apc::check_frame_rules(decode_all(bare_sink), {}, 1);
    ASSERT_EQ(violations.size(), 1U);
    EXPECT_NE(violations[0].text.find("Required Messages"), std::string::npos);
}

// Counter values and PC samples over several milliseconds, in one poll: as one SampleRun, or as
// the single events it stands for.
class SamplesSource final : public collectors::Source {
  public:
    explicit SamplesSource(bool batched) : batched_(batched) {}
    [[nodiscard]] std::string_view name() const override { return "samples"; }
    Status start(const collectors::CaptureContext& ctx) override {
        key_ = *ctx.counters.key("c0");
        return {};
    }
    [[nodiscard]] bool recorded() const override { return true; }
    collectors::PollResult poll(model::Nanos /*now*/, std::vector<model::Event>& out) override {
        model::SampleRun run;
        for (model::Nanos ts = 0; ts < 5'000'000; ts += 300'000) {
            for (std::int32_t core = 0; core < 2; ++core) {
                run.samples.push_back({ts, ts / 1000 + core, core, key_, -1, 0});
                run.samples.push_back({ts, ts / 1000 + 5, core, key_, -1, 0});
                run.samples.push_back({ts, 0x400 + ts / 1000, core, model::kPcSampleKey, 9, 2});
            }
        }
        if (batched_) {
            out.emplace_back(std::move(run));
        } else {
            for (const auto& sample : run.samples) out.push_back(model::single_event(sample));
        }
        return {5'000'000, true};
    }

  private:
    bool batched_;
    model::CounterKey key_ = 0;
};

// The event rate's samples go where they would among the single events a SampleRun stands for
// (several in the run's middle, one of them after the first value of a time): the capture is the
// same byte for byte.
TEST(CaptureEngine, ASampleRunEncodesAsItsSingleEventsWithTheEventRate) {
    std::vector<std::vector<std::vector<std::uint8_t>>> captures;
    for (bool batched : {false, true}) {
        Fixture f;
        EventRateCounter::declare(f.catalog);
        SamplesSource source(batched);
        MemorySink sink;
        CaptureEngine engine(f.plan({&source}), sink);
        ASSERT_TRUE(engine.start());
        while (engine.recorded_running()) {
            engine.poll_behind(0);
            engine.encode_ready();
        }
        engine.finish(0);
        captures.push_back(sink.frames);
    }
    EXPECT_EQ(captures[0], captures[1]);
    ASSERT_FALSE(captures[0].empty());
}

// An input without a single event still makes a valid capture: one sample saying 0 events.
TEST(CaptureEngine, TheEventRateOfAnEmptyCaptureIsOneZero) {
    model::CounterCatalog catalog;
    EventRateCounter::declare(catalog);
    SpansOnlySource empty(true);
    CapturePlan plan;
    plan.counters = model::CaptureCounters::assign(catalog, catalog.defaults());
    plan.sources = {&empty};
    const auto key = *plan.counters.key(EventRateCounter::kCounter);
    MemorySink sink;
    CaptureEngine engine(std::move(plan), sink);
    ASSERT_TRUE(engine.start());
    engine.poll_behind(0);
    engine.finish(0);
    EXPECT_TRUE(apc::check_frame_rules(decode_all(sink), {key}, 1).empty());
    const std::vector<std::pair<model::Nanos, std::int64_t>> want{{0, 0}};
    EXPECT_EQ(samples_of(sink, key), want);
}

}  // namespace
}  // namespace apcgate::daemon
