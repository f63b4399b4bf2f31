// What each kind of record becomes in the event model, through the whole source (declare,
// start, poll): names, spans and their nesting, async and flow channels, counters, context
// switches, logs, and what is only counted.
#include <gtest/gtest.h>

#include "collectors/fxt/model_mapper.hpp"
#include "collectors/fxt/record_kinds.hpp"
#include "fxt_writer.hpp"
#include "source_runner.hpp"

namespace apcgate::fxt_test {
namespace {

namespace kind = collectors::fxt::kind;

// String annotations of one channel, as (relative ts, text).
std::vector<std::pair<model::Nanos, std::string>> on_channel(const SourceRun& run,
                                                             std::int32_t channel) {
    std::vector<std::pair<model::Nanos, std::string>> out;
    for (const auto& [a, s] : run.annotations<model::StringAnnotation>())
        if (s.channel == channel) out.emplace_back(a.ts, s.text);
    return out;
}

std::int32_t channel_named(const SourceRun& run, const std::string& name,
                           std::int32_t* group = nullptr) {
    for (const auto& [a, c] : run.annotations<model::ChannelName>()) {
        if (c.name != name) continue;
        if (group != nullptr) *group = c.group;
        return c.channel;
    }
    return -1;
}

TEST(FxtMapping, KernelObjectsNameProcessesAndThreads) {
    FxtWriter w;
    w.magic();
    w.kernel_object(3, 1, inl("Test.exe"));
    w.kernel_object(45, 2, inl("Main"), {arg_koid(inl("process"), 3)});
    w.kernel_object(0x8000000000000007ULL, 2, inl("virtual"), {arg_koid(inl("process"), 3)});
    w.event(0, 100, inline_thread(3, 45), inl("c"), inl("tick"));
    w.kernel_object(45, 2, inl("Renamed"), {arg_koid(inl("process"), 3)});
    const auto run = run_bytes(w.bytes());
    const auto names = run->all<model::ThreadName>();
    ASSERT_EQ(names.size(), 3U);
    EXPECT_EQ(names[0].tid, 45);
    EXPECT_EQ(names[0].name, "Main");
    EXPECT_EQ(names[1].name, "virtual");
    EXPECT_GT(names[1].tid, 1 << 30);  // a koid past 2^31 gets a fresh 32-bit id
    EXPECT_EQ(names[2].name, "Renamed");
    const auto comms = run->all<model::ProcComm>();
    ASSERT_GE(comms.size(), 2U);
    EXPECT_EQ(comms[0].pid, 3);
    EXPECT_EQ(comms[0].tid, 45);
    EXPECT_EQ(comms[0].image, "Test.exe");
    EXPECT_EQ(comms[0].comm, "Main");
    EXPECT_EQ(run->stats(kind::kKernelObject).read, 4U);
    EXPECT_EQ(run->stats(kind::kKernelObject).mapped, 4U);
    expect_time_order(*run);
}

TEST(FxtMapping, DurationsNestByDepthOnTheThreadsChannels) {
    FxtWriter w;
    w.magic();
    w.kernel_object(45, 2, inl("Main"));
    w.event(2, 200, inline_thread(3, 45), inl("Foo"), inl("Root"), {arg_i32(inl("n"), 7)});
    w.event(2, 400, inline_thread(3, 45), inl("Foo"), inl("Inner"));
    // Complete [500, 800] inside Inner, written when it ended.
    w.event(4, 500, inline_thread(3, 45), inl("Svc"), inl("DoStuff"), {}, 800);
    w.event(3, 900, inline_thread(3, 45), inl("Foo"), inl("Inner"));
    w.event(3, 950, inline_thread(3, 45), inl("Foo"), inl("Root"));
    w.event(3, 960, inline_thread(3, 45), inl("Foo"), inl("Extra"));  // no begin left
    const auto run = run_bytes(w.bytes());
    std::int32_t group = -1;
    const auto d0 = channel_named(*run, "depth 0", &group);
    const auto d1 = channel_named(*run, "depth 1");
    const auto d2 = channel_named(*run, "depth 2");
    ASSERT_GT(d0, 0);
    const auto groups = run->annotations<model::GroupName>();
    ASSERT_FALSE(groups.empty());
    EXPECT_EQ(groups[0].second.name, "Main");
    EXPECT_EQ(groups[0].second.group, group);
    // Timestamps are relative to the archive's first event (200).
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*run, d0), (V{{0, "Foo:Root n=7"}, {750, ""}}));
    EXPECT_EQ(on_channel(*run, d1), (V{{200, "Foo:Inner"}, {700, ""}}));
    EXPECT_EQ(on_channel(*run, d2), (V{{300, "Svc:DoStuff"}, {600, ""}}));
    EXPECT_EQ(run->stats(kind::kDurationBegin).mapped, 2U);
    EXPECT_EQ(run->stats(kind::kDurationComplete).mapped, 1U);
    EXPECT_EQ(run->stats(kind::kDurationEnd).read, 3U);
    EXPECT_EQ(run->stats(kind::kUnmatchedEnd).skipped, 1U);
    // The span annotations travel as SpanRuns, a new one after each Create Channel: the opens
    // of depth 0 and 1 alone, then the open of depth 2 with the three ends after it.
    EXPECT_EQ(run->span_run_items, 6U);
    EXPECT_EQ(run->span_runs, 3U);
    expect_time_order(*run);
}

// Nesting a real program reaches (hundreds of levels) is shown whole; only past the bound that
// guards against hostile archives are spans left out, and then the report says how many.
TEST(FxtMapping, DeepNestingIsShownAndWhatLiesPastTheBoundIsAProblem) {
    constexpr int kLevels = 300;
    FxtWriter w;
    w.magic();
    for (int i = 0; i < kLevels; ++i) w.event(2, 100 + i, inline_thread(3, 45), inl("c"), inl("r"));
    for (int i = 0; i < kLevels; ++i)
        w.event(3, 1000 + i, inline_thread(3, 45), inl("c"), inl("r"));
    const auto run = run_bytes(w.bytes());
    EXPECT_GT(channel_named(*run, "depth " + std::to_string(kLevels - 1)), 0);
    EXPECT_EQ(run->stats(kind::kDurationBegin).mapped, static_cast<std::uint64_t>(kLevels));
    EXPECT_EQ(run->stats(kind::kTooDeep).skipped, 0U);
    EXPECT_EQ(run->report().problem_count(), 0U);

    constexpr int kMax = collectors::fxt::ModelMapper::kMaxDepth;
    constexpr int kPast = 5;
    FxtWriter deep;
    deep.magic();
    for (int i = 0; i < kMax + kPast; ++i)
        deep.event(2, 100 + i, inline_thread(3, 45), inl("c"), inl("r"));
    for (int i = 0; i < kMax + kPast; ++i)
        deep.event(3, 100000 + i, inline_thread(3, 45), inl("c"), inl("r"));
    const auto cut = run_bytes(deep.bytes());
    EXPECT_GT(channel_named(*cut, "depth " + std::to_string(kMax - 1)), 0);
    EXPECT_EQ(channel_named(*cut, "depth " + std::to_string(kMax)), -1);
    EXPECT_EQ(cut->stats(kind::kTooDeep).skipped, static_cast<std::uint64_t>(kPast));
    ASSERT_EQ(cut->report().problem_count(), 1U);
    const std::string text = cut->report().problems()[0].to_string();
    EXPECT_NE(
        text.find(std::to_string(kPast) + " spans nested deeper than " + std::to_string(kMax)),
        std::string::npos)
        << text;
    // Every span shown is closed: the ends past the bound closed the hidden spans, not theirs.
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*cut, channel_named(*cut, "depth 0")),
              (V{{0, "c:r"}, {100000 + kMax + kPast - 1 - 100, ""}}));
}

TEST(FxtMapping, CompleteEventsWrittenInnerFirstNestByTime) {
    FxtWriter w;
    w.magic();
    w.event(4, 20, inline_thread(1, 2), {}, inl("inner"), {}, 30);
    w.event(4, 10, inline_thread(1, 2), {}, inl("outer"), {}, 40);
    const auto run = run_bytes(w.bytes());
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*run, channel_named(*run, "depth 0")), (V{{0, "outer"}, {30, ""}}));
    EXPECT_EQ(on_channel(*run, channel_named(*run, "depth 1")), (V{{10, "inner"}, {20, ""}}));
}

TEST(FxtMapping, AsyncAndFlowEventsGetAChannelPerIdInTheAsyncGroup) {
    FxtWriter w;
    w.magic();
    w.event(5, 450, inline_thread(3, 45), inl("Asdf"), inl("AsyncThing"), {}, 111);
    w.event(6, 825, inline_thread(3, 87), inl("Asdf"), inl("AsyncInstant"), {}, 111);
    w.event(7, 850, inline_thread(3, 87), inl("Asdf"), inl("AsyncThing"), {}, 111);
    w.event(8, 955, inline_thread(3, 45), inl("A"), inl("Flow"), {}, 123);
    w.event(9, 1005, inline_thread(4, 50), inl("A"), inl("Step"), {}, 123);
    w.event(10, 1155, inline_thread(3, 45), inl("A"), inl("Flow"), {}, 123);
    w.event(7, 1200, inline_thread(3, 45), inl("A"), inl("Lost"), {}, 999);  // no begin
    const auto run = run_bytes(w.bytes());
    std::int32_t group = -1;
    const auto async = channel_named(*run, "async 111", &group);
    ASSERT_GT(async, 0);
    const auto groups = run->annotations<model::GroupName>();
    ASSERT_EQ(groups.size(), 2U);  // "async", then thread 87's group for the instant
    EXPECT_EQ(groups[0].second.name, "async");
    EXPECT_EQ(groups[0].second.group, group);
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*run, async), (V{{0, "Asdf:AsyncThing"}, {400, ""}}));
    EXPECT_EQ(on_channel(*run, channel_named(*run, "flow 123")),
              (V{{505, "A:Flow"}, {555, "A:Step"}, {705, ""}}));
    // The async instant is a note on its thread's "events" channel.
    EXPECT_EQ(on_channel(*run, channel_named(*run, "events")),
              (V{{375, "Asdf:AsyncInstant (async 111)"}, {375, ""}}));
    EXPECT_EQ(run->stats(kind::kUnmatchedAsyncEnd).skipped, 1U);
    expect_time_order(*run);
}

TEST(FxtMapping, CounterEventsMakeOneCounterPerEventAndArgument) {
    FxtWriter w;
    w.magic();
    for (int i = 0; i < 3; ++i) {
        w.event(1, 250 + 100 * static_cast<std::uint64_t>(i), inline_thread(3, 45), inl("Bar"),
                inl("CounterA"),
                {arg_i32(inl("int_arg"), 111 * (i + 1)), arg_double(inl("double_arg"), 0.25 * i),
                 arg_string(inl("label"), inl("not a number"))},
                555);
    }
    const auto run = run_bytes(w.bytes());
    const auto* spec = run->catalog.find("FXT_CounterA_int_arg");
    ASSERT_NE(spec, nullptr);
    EXPECT_EQ(spec->title, "CounterA");
    EXPECT_EQ(spec->name, "int_arg");
    EXPECT_EQ(spec->cls, model::CounterClass::Absolute);
    EXPECT_EQ(spec->delivery, model::Delivery::Single);
    EXPECT_EQ(run->values("FXT_CounterA_int_arg"), (std::vector<std::int64_t>{111, 222, 333}));
    const auto* dspec = run->catalog.find("FXT_CounterA_double_arg");
    ASSERT_NE(dspec, nullptr);
    EXPECT_DOUBLE_EQ(dspec->multiplier, 1e-6);
    EXPECT_EQ(run->values("FXT_CounterA_double_arg"),
              (std::vector<std::int64_t>{0, 250000, 500000}));
    EXPECT_EQ(run->catalog.counters().size(), 2U);
    EXPECT_EQ(run->stats(kind::kCounter).mapped, 3U);
    EXPECT_EQ(run->stats(kind::kCounterArg).skipped, 3U);
}

TEST(FxtMapping, DisabledCountersAreCountedNotSent) {
    FxtWriter w;
    w.magic();
    w.event(1, 1, inline_thread(1, 2), {}, inl("C"), {arg_i64(inl("a"), 1), arg_i64(inl("b"), 2)},
            0);
    const auto run = run_path(write_temp("disabled.fxt", w.bytes()), {}, {"FXT_C_a"});
    EXPECT_EQ(run->values("FXT_C_a"), (std::vector<std::int64_t>{1}));
    EXPECT_EQ(run->all<model::CounterSample>().size(), 1U);
    EXPECT_EQ(run->stats(kind::kCounterOff).skipped, 1U);
}

TEST(FxtMapping, ContextSwitchesBecomeActivityOnTheirCpu) {
    FxtWriter w;
    w.magic();
    w.kernel_object(45, 2, inl("Main"), {arg_koid(inl("process"), 3)});
    w.context_switch(3, 1, 250, 45, 87, {arg_i32(inl("incoming_weight"), 2)});  // 45 preempted
    w.context_switch(3, 3, 300, 87, 0, {arg_i32(inl("incoming_weight"), INT32_MIN)});  // to idle
    w.context_switch(1, 5, 320, 45, 50);                                               // 45 is dead
    w.thread_wakeup(3, 310, 45, {arg_i32(inl("weight"), 5)});
    w.legacy_context_switch(2, 3, inline_thread(0, 0), inline_thread(3, 45), 0, 16, 400);
    const auto run = run_bytes(w.bytes());
    const auto* spec = run->catalog.find("FXT_cpu_activity");
    ASSERT_NE(spec, nullptr);
    EXPECT_EQ(spec->cls, model::CounterClass::Activity);
    EXPECT_EQ(spec->cores, 4);
    EXPECT_EQ(run->target.cores, 4);
    const auto sw = run->all<model::ActivitySwitch>();
    ASSERT_EQ(sw.size(), 4U);
    EXPECT_EQ(sw[0].core, 3);
    EXPECT_EQ(sw[0].tid, 87);
    EXPECT_EQ(sw[0].activity, 1);
    EXPECT_EQ(sw[0].wait, model::WaitState::Contention);
    EXPECT_EQ(sw[1].tid, -1);
    EXPECT_EQ(sw[1].activity, 0);
    EXPECT_EQ(sw[1].wait, model::WaitState::Other);
    EXPECT_EQ(sw[2].core, 1);
    EXPECT_EQ(sw[3].core, 2);
    EXPECT_EQ(sw[3].tid, 45);
    const auto exits = run->all<model::TaskExit>();
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits[0].tid, 45);
    EXPECT_EQ(run->stats(kind::kContextSwitch).mapped, 3U);
    EXPECT_EQ(run->stats(kind::kLegacyContextSwitch).mapped, 1U);
    EXPECT_EQ(run->stats(kind::kThreadWakeup).skipped, 1U);
    expect_time_order(*run);
}

TEST(FxtMapping, LogsAndInstantsAreNotesOnTheThread) {
    FxtWriter w;
    w.magic();
    w.log(10, inline_thread(1, 2), "hello\xff world");
    w.event(0, 20, inline_thread(1, 2), inl("cat"), inl("instant"), {arg_bool(inl("ok"), true)});
    const auto run = run_bytes(w.bytes());
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*run, channel_named(*run, "events")),
              (V{{0, "hello\xEF\xBF\xBD world"}, {0, ""}, {10, "cat:instant ok=true"}, {10, ""}}));
    EXPECT_EQ(run->stats(kind::kLog).mapped, 1U);
    EXPECT_EQ(run->stats(kind::kInstant).mapped, 1U);
}

TEST(FxtMapping, BlobsAndObjectsAreCountedAndPointersLabelled) {
    FxtWriter w;
    w.magic();
    w.blob(inl("TestBlob"), "testing123");
    w.large_blob(1, inl("c"), inl("big"), 0, {}, "payload");
    w.userspace_object(0x1234, inline_thread(3, 0), inl("MyObject"));
    w.event(0, 5, inline_thread(3, 4), {}, inl("use"), {arg_pointer(inl("p"), 0x1234)});
    const auto run = run_bytes(w.bytes());
    EXPECT_EQ(run->stats(kind::kBlob).skipped, 1U);
    EXPECT_EQ(run->stats(kind::kLargeBlob).skipped, 1U);
    EXPECT_EQ(run->stats(kind::kUserspaceObject).read, 1U);
    using V = std::vector<std::pair<model::Nanos, std::string>>;
    EXPECT_EQ(on_channel(*run, channel_named(*run, "events")),
              (V{{0, "use p=0x1234 (MyObject)"}, {0, ""}}));
}

TEST(FxtMapping, BigEndianArchivesMapLikeLittleEndianOnes) {
    auto build = [](bool big) {
        FxtWriter w(big);
        w.magic();
        w.initialization(1000);
        w.string_record(1, "name");
        w.thread_record(1, 3, 45);
        w.event(2, 1, thr(1), inl("cat"), idx(1), {arg_double(inl("d"), 1.5)});
        w.event(3, 2, thr(1), inl("cat"), idx(1));
        w.event(1, 3, thr(1), inl("cat"), idx(1), {arg_u64(inl("v"), 42)}, 0);
        return w.take();
    };
    const auto little = run_bytes(build(false), {}, "le.fxt");
    const auto big = run_bytes(build(true), {}, "be.fxt");
    ASSERT_EQ(little->events.size(), big->events.size());
    EXPECT_EQ(on_channel(*big, channel_named(*big, "depth 0")),
              (std::vector<std::pair<model::Nanos, std::string>>{{0, "cat:name d=1.5"},
                                                                 {1'000'000, ""}}));
    EXPECT_EQ(big->values("FXT_name_v"), (std::vector<std::int64_t>{42}));
    EXPECT_EQ(big->source->time_origin(), little->source->time_origin());
}

TEST(FxtMapping, SecondCaptureReadsAfreshAndGivesTheSameEvents) {
    FxtWriter w;
    w.magic();
    w.kernel_object(0x1bbbbbbbbbbbbbbbULL, 2, inl("big koid"));
    w.event(0, 1, inline_thread(1, 0x1bbbbbbbbbbbbbbbULL), {}, inl("x"));
    const auto path = write_temp("twice.fxt", w.bytes());
    auto run = run_path(path);
    const auto first = run->events.size();
    const auto first_tid = run->all<model::ThreadName>().at(0).tid;
    run->capture();
    EXPECT_EQ(run->events.size(), first);
    EXPECT_EQ(run->all<model::ThreadName>().at(0).tid, first_tid);
    // A rewritten file is read again on the next start.
    w.event(0, 2, inline_thread(1, 0x1bbbbbbbbbbbbbbbULL), {}, inl("y"));
    write_temp("twice.fxt", w.bytes());
    run->capture();
    EXPECT_GT(run->events.size(), first);
    EXPECT_EQ(run->stats(kind::kInstant).read, 2U);
}

TEST(FxtMapping, RefreshFindsTheOriginOfARewrittenArchive) {
    const auto archive = [](std::uint64_t ticks) {
        FxtWriter w;
        w.magic();
        w.event(0, ticks, inline_thread(1, 2), {}, inl("x"));
        return w.bytes();
    };
    const auto path = write_temp("moved.fxt", archive(5'000));
    auto run = run_path(path);
    const model::Nanos before = run->source->time_origin();
    write_temp("moved.fxt", archive(9'000));  // the next run's archive, in place
    ASSERT_TRUE(run->source->refresh());
    // Without an initialization record a tick is a nanosecond.
    EXPECT_EQ(run->source->time_origin() - before, 4'000);
    EXPECT_FALSE(run->source->clock().to_monotonic);  // ticks relate to no other clock
}

}  // namespace
}  // namespace apcgate::fxt_test
