// The live driver with recorded sources (serve --source): they are read as fast as the sink
// takes frames, not one poll per live-rate tick, and not at all while the sink holds more than
// kUnsentHigh unsent bytes, until it says it drained.
#include "daemon/capture/live_capture.hpp"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>

#include "daemon/capture/clocks.hpp"
#include "protocol/wire/type_index.hpp"

namespace apcgate::daemon {
namespace {

// A client that reads nothing until told: every frame stays unsent.
class StalledSink final : public CaptureSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        bytes += body.size() + 5;
        if (stalls) unsent += body.size() + 5;
    }
    void flush() override { ++flushes; }
    void finish() override { finished = true; }
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes; }
    [[nodiscard]] std::uint64_t unsent_bytes() const override { return unsent; }
    void when_drained(std::uint64_t low, std::function<void()> ready) override {
        waiter_low = low;
        waiter = std::move(ready);
    }
    // The client reads everything; the waiter runs as the transport would call it.
    void drain() {
        unsent = 0;
        if (waiter) std::exchange(waiter, nullptr)();
    }
    std::uint64_t bytes = 0;
    std::uint64_t unsent = 0;
    int flushes = 0;
    bool finished = false;
    std::function<void()> waiter;
    std::uint64_t waiter_low = 0;
    bool stalls = true;  // false: frames count as sent at once
};

// A trace input: `chunks` polls, each one 64 KiB annotation 1 us after the previous one.
class TraceInput final : public collectors::Source {
  public:
    explicit TraceInput(int chunks) : chunks_(chunks) {}
    [[nodiscard]] std::string_view name() const override { return "trace"; }
    Status start(const collectors::CaptureContext& /*ctx*/) override { return {}; }
    [[nodiscard]] bool recorded() const override { return true; }
    collectors::PollResult poll(model::Nanos /*now*/, std::vector<model::Event>& out) override {
        if (polls == chunks_) return {ts_, true};
        ++polls;
        ts_ += 1000;
        out.push_back(model::Annotation{
            ts_, 0, 7,
            model::StringAnnotation{1, std::nullopt, std::string(std::size_t{64} * 1024, 'x')}});
        return {ts_, polls == chunks_};
    }
    int polls = 0;

  private:
    int chunks_;
    model::Nanos ts_ = 0;
};

struct Harness {
    asio::io_context io;
    model::CounterCatalog catalog;
    StalledSink sink;
    TraceInput input;
    std::shared_ptr<LiveCapture> capture;
    std::string ended;

    explicit Harness(int chunks) : input(chunks) {
        CapturePlan plan;
        plan.counters = model::CaptureCounters::assign(catalog, catalog.defaults());
        plan.sources = {&input};
        plan.settings.live_rate_ms = 100;
        capture = std::make_shared<LiveCapture>(
            io.get_executor(), std::make_unique<CaptureEngine>(std::move(plan), sink),
            monotonic_ns(), [this](const std::string& reason) { ended = reason; });
        EXPECT_TRUE(capture->start());
    }
    // Runs what is ready (never waits for the live-rate timer) until nothing is.
    void run_ready() {
        while (io.poll() > 0) {
        }
    }
};

TEST(LiveCapture, RecordedSourcesAreReadAsFastAsTheFramesAreTaken) {
    Harness h(400);
    h.sink.stalls = false;
    // A client that takes every frame at once: the whole input goes without waiting for any
    // live-rate tick (polling a recorded input once per tick would take 400 ticks here).
    while (h.ended.empty()) {
        h.run_ready();
        h.sink.drain();
    }
    EXPECT_EQ(h.ended, "all sources finished");
    EXPECT_EQ(h.input.polls, 400);
    EXPECT_TRUE(h.sink.finished);
    // The live-rate ticks that passed meanwhile, and the open frames sent every few MiB: far
    // fewer than the polls.
    EXPECT_LT(h.sink.flushes, 100);
}

TEST(LiveCapture, AClientThatDoesNotReadPausesRecordedSourcesUntilItDrains) {
    Harness h(400);  // 25 MiB of annotations
    h.run_ready();
    // Reading stopped once more than kUnsentHigh bytes waited: at most one poll's frames more.
    const int polls = h.input.polls;
    EXPECT_GT(polls, 0);
    EXPECT_LT(polls, 400);
    EXPECT_GT(h.sink.unsent, LiveCapture::kUnsentHigh);
    EXPECT_LE(h.sink.unsent, LiveCapture::kUnsentHigh + (1 << 20));  // a frame or two more
    ASSERT_TRUE(h.sink.waiter);
    EXPECT_EQ(h.sink.waiter_low, LiveCapture::kUnsentLow);
    EXPECT_TRUE(h.ended.empty());
    h.run_ready();
    EXPECT_EQ(h.input.polls, polls);  // nothing more until the client reads
    // The client reads: the rest goes, in pauses, to the end of the input.
    while (h.ended.empty()) {
        h.sink.drain();
        h.run_ready();
    }
    EXPECT_EQ(h.ended, "all sources finished");
    EXPECT_EQ(h.input.polls, 400);
}

TEST(LiveCapture, StopWhilePausedEndsTheCaptureAndTheWaiterDoesNothing) {
    Harness h(400);
    h.run_ready();
    ASSERT_TRUE(h.sink.waiter);
    const int polls = h.input.polls;
    h.capture->stop("stopped by client");
    EXPECT_EQ(h.ended, "stopped by client");
    EXPECT_TRUE(h.sink.finished);
    h.sink.drain();
    h.run_ready();
    EXPECT_EQ(h.input.polls, polls + 1);  // the engine's last poll at the stop
}

// A live collector polled every 10 ms: each poll gives 1000 annotations up to now.
class LiveInput final : public collectors::Source {
  public:
    [[nodiscard]] std::string_view name() const override { return "live"; }
    Status start(const collectors::CaptureContext& /*ctx*/) override { return {}; }
    [[nodiscard]] model::Nanos poll_period() const override { return 10'000'000; }
    collectors::PollResult poll(model::Nanos now, std::vector<model::Event>& out) override {
        ++polls;
        for (int i = 0; i < 1000; ++i)
            out.push_back(
                model::Annotation{now, 0, 7, model::StringAnnotation{1, std::nullopt, "x"}});
        return {now, false};
    }
    int polls = 0;
};

TEST(LiveCapture, ALiveSourcesEventsAreEncodedAtEachPollNotHeldToTheNextFlush) {
    asio::io_context io;
    model::CounterCatalog catalog;
    StalledSink sink;
    sink.stalls = false;
    LiveInput input;
    CapturePlan plan;
    plan.counters = model::CaptureCounters::assign(catalog, catalog.defaults());
    plan.sources = {&input};
    plan.settings.live_rate_ms = 60'000;  // no flush during the test
    std::string ended;
    auto capture = std::make_shared<LiveCapture>(
        io.get_executor(), std::make_unique<CaptureEngine>(std::move(plan), sink), monotonic_ns(),
        [&ended](const std::string& reason) { ended = reason; });
    ASSERT_TRUE(capture->start());
    while (input.polls < 3) io.run_one();
    // Held decoded until the live-rate flush, a minute of a fast collector's events would be
    // a minute of memory; they are encoded (into frames, a fraction of their size) as soon as
    // every source has vouched for them.
    constexpr std::size_t kAnnotation = wire::kTypeIndex<model::Annotation, model::Event>;
    EXPECT_EQ(capture->engine().encoder_stats().messages[kAnnotation], 3000U);
    capture->stop("done");
    EXPECT_EQ(ended, "done");
}

}  // namespace
}  // namespace apcgate::daemon
