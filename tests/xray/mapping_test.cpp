// From calls to Streamline annotations: spans per depth, what happens to exits without entries
// and entries without exits, the depth limit, event texts, and the calls-per-second counters.
#include <gtest/gtest.h>

#include "collectors/xray/call_rate_counters.hpp"
#include "collectors/xray/event_text.hpp"
#include "collectors/xray/span_mapper.hpp"

namespace apcgate::collectors::xray {
namespace {

// What a thread's annotations say, in order: "open D text", "close D", "note text".
class Recorder {
  public:
    Recorder() : mapper(names, stats, "prog", "/bin/prog") {}

    void call(CallKind kind, std::uint32_t fn, model::Nanos ts,
              std::vector<std::uint64_t> args = {}) {
        CallEvent e{};
        e.kind = kind;
        e.function = fn;
        e.cpu = 2;
        e.arg_count = static_cast<std::uint16_t>(args.size());
        mapper.event(ts, 0, info, e, args, {}, out);
    }
    void end(model::Nanos ts) { mapper.thread_end(ts, 0, info, out); }
    // One event per annotation (the mapper hands spans over as SpanRuns).
    [[nodiscard]] std::vector<model::Event> events() const {
        std::vector<model::Event> e = out;
        model::expand_span_runs(e);
        return e;
    }

    // Channel ids to depths, from the Create Channel annotations.
    std::vector<std::string> spans() const {
        std::map<std::int32_t, std::string> channel_names;
        std::vector<std::string> s;
        for (const auto& ev : events()) {
            const auto* a = std::get_if<model::Annotation>(&ev);
            if (a == nullptr) continue;
            if (const auto* c = std::get_if<model::ChannelName>(&a->body))
                channel_names[c->channel] = c->name;
            if (const auto* t = std::get_if<model::StringAnnotation>(&a->body)) {
                const std::string where = channel_names[t->channel];
                s.push_back(t->text.empty() ? "close " + where : "open " + where + " " + t->text);
            }
        }
        return s;
    }

    FunctionNames names;
    Stats stats;
    ThreadInfo info{77, 12, true, {}};
    SpanMapper mapper;
    std::vector<model::Event> out;
};

TEST(SpanMapper, NestedCallsOpenAndCloseOnTheirDepthChannels) {
    Recorder r;
    r.call(CallKind::Enter, 1, 10);
    r.call(CallKind::EnterArgs, 2, 20, {67, 5});
    r.call(CallKind::Exit, 2, 30);
    r.call(CallKind::TailExit, 1, 40);
    const std::vector<std::string> want{"open depth 0 fn#1", "open depth 1 fn#2 [67, 5]",
                                        "close depth 1", "close depth 0"};
    EXPECT_EQ(r.spans(), want);
    // The thread is named once, for Streamline's thread list and the annotation group.
    ASSERT_TRUE(std::holds_alternative<model::ThreadName>(r.out[0]));
    EXPECT_EQ(std::get<model::ThreadName>(r.out[0]).name, "prog pid 12 tid 77");
    EXPECT_EQ(std::get<model::ProcComm>(r.out[1]).image, "/bin/prog");
    const auto& group = std::get<model::Annotation>(r.out[2]);
    EXPECT_EQ(std::get<model::GroupName>(group.body).name, "prog pid 12 tid 77");
    EXPECT_EQ(r.stats.mapped_count(Stat::FunctionEnter), 1U);
    EXPECT_EQ(r.stats.mapped_count(Stat::FunctionEnterArgs), 1U);
    EXPECT_EQ(r.stats.mapped_count(Stat::FunctionTailExit), 1U);
    for (const auto& ev : r.events()) {
        if (const auto* a = std::get_if<model::Annotation>(&ev)) {
            EXPECT_EQ(a->tid, 77);
        }
    }
}

// From a channel's first span on, its spans travel in SpanRuns: one event for a stretch of
// calls, with the same annotations in the same order.
TEST(SpanMapper, CallsOnKnownChannelsShareOneSpanRun) {
    Recorder r;
    r.call(CallKind::Enter, 1, 10);
    r.call(CallKind::Exit, 1, 11);  // depth 0's channel was named by the entry: a run starts
    const std::size_t before = r.out.size();
    ASSERT_TRUE(std::holds_alternative<model::SpanRun>(r.out.back()));
    for (int i = 0; i < 100; ++i) {
        r.call(CallKind::Enter, 1, 20 + 2 * i);
        r.call(CallKind::Exit, 1, 21 + 2 * i);
    }
    ASSERT_EQ(r.out.size(), before);
    const auto& run = std::get<model::SpanRun>(r.out.back());
    ASSERT_EQ(run.pending(), 201U);
    EXPECT_EQ(run.text(run.items[0]), "");
    EXPECT_EQ(run.items[0].ts, 11);
    EXPECT_EQ(run.text(run.items[1]), "fn#1");
    EXPECT_EQ(run.items[1].ts, 20);
    EXPECT_EQ(run.items[1].tid, 77);
    EXPECT_EQ(run.items[1].core, 2);
    EXPECT_EQ(run.text(run.items[200]), "");
    EXPECT_EQ(run.items[200].ts, 219);
    EXPECT_EQ(run.items[1].channel, run.items[200].channel);
    EXPECT_EQ(r.spans().size(), 202U);
}

TEST(SpanMapper, ExitsWithoutEntriesAreCountedNotShown) {
    Recorder r;
    r.call(CallKind::Exit, 5, 10);  // began before the trace
    r.call(CallKind::Enter, 1, 20);
    r.call(CallKind::Exit, 9, 30);  // not open
    r.call(CallKind::Exit, 1, 40);
    const std::vector<std::string> want{"open depth 0 fn#1", "close depth 0"};
    EXPECT_EQ(r.spans(), want);
    EXPECT_EQ(r.stats.statistic(XrayStat::ExitsWithoutEntry), 2U);
    EXPECT_EQ(r.stats.skipped_count(Stat::FunctionExit), 2U);
    // The span ends at fn#1's own exit, not at the stray exit of fn#9 before it.
    const auto all = r.events();
    const auto& close = std::get<model::Annotation>(all.back());
    EXPECT_TRUE(std::get<model::StringAnnotation>(close.body).text.empty());
    EXPECT_EQ(close.ts, 40);
}

TEST(SpanMapper, AnExitBelowTheTopClosesTheCallsAboveItAndTheEndClosesTheRest) {
    Recorder r;
    r.call(CallKind::Enter, 1, 10);
    r.call(CallKind::Enter, 2, 20);
    r.call(CallKind::Enter, 3, 30);
    r.call(CallKind::Exit, 2, 40);  // 3's exit was lost
    r.call(CallKind::Enter, 4, 50);
    r.end(60);  // buffer ran out: 4 and 1 never exited
    const std::vector<std::string> want{
        "open depth 0 fn#1", "open depth 1 fn#2", "open depth 2 fn#3", "close depth 2",
        "close depth 1",     "open depth 1 fn#4", "close depth 1",     "close depth 0"};
    EXPECT_EQ(r.spans(), want);
    EXPECT_EQ(r.stats.statistic(XrayStat::EntriesWithoutExit), 3U);
    model::Nanos last = 0;
    for (const auto& ev : r.events()) {
        EXPECT_GE(model::timestamp_of(ev), last);
        last = model::timestamp_of(ev);
    }
    EXPECT_EQ(last, 60);
}

TEST(SpanMapper, CallsDeeperThanTheLimitAreFollowedButNotShown) {
    Recorder r;
    const std::size_t deep = SpanMapper::kMaxDepth + 3;
    for (std::size_t i = 0; i < deep; ++i) r.call(CallKind::Enter, 1, static_cast<model::Nanos>(i));
    for (std::size_t i = 0; i < deep; ++i)
        r.call(CallKind::Exit, 1, static_cast<model::Nanos>(deep + i));
    const auto spans = r.spans();
    EXPECT_EQ(spans.size(), 2 * SpanMapper::kMaxDepth);
    EXPECT_EQ(spans.back(), "close depth 0");
    EXPECT_EQ(r.stats.statistic(XrayStat::CallsDeeperThanLimit), 3U);
    EXPECT_EQ(r.stats.statistic(XrayStat::ExitsWithoutEntry), 0U);
    // What the source reports as one problem.
    EXPECT_EQ(r.mapper.calls_deeper_than_limit(), 3U);
    EXPECT_EQ(r.mapper.deepest(), deep);
    // The bound guards against hostile logs, not real recursion (hundreds of levels).
    EXPECT_GE(SpanMapper::kMaxDepth, 4096U);
}

TEST(SpanMapper, CustomAndTypedEventsAreNotesOnTheEventsChannel) {
    Recorder r;
    const std::string text = "custom 3";
    const std::vector<std::uint8_t> payload(text.begin(), text.end());
    CallEvent e{};
    e.kind = CallKind::CustomEvent;
    r.mapper.event(5, 0, r.info, e, {}, payload, r.out);
    e.kind = CallKind::TypedEvent;
    e.function = 7;
    const std::vector<std::uint8_t> binary{0x00, 0xff, 0x10};
    r.mapper.event(6, 0, r.info, e, {}, binary, r.out);
    const std::vector<std::string> want{"open events custom: custom 3", "close events",
                                        "open events typed 7: 0x00 0xff 0x10", "close events"};
    EXPECT_EQ(r.spans(), want);
}

TEST(EventText, PrintableUtf8IsTextAndEverythingElseHex) {
    auto bytes = [](const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
    EXPECT_TRUE(printable_utf8(bytes("caf\xc3\xa9 \xe2\x82\xac\ttab")));
    EXPECT_FALSE(printable_utf8(bytes("bell\x07")));
    EXPECT_FALSE(printable_utf8(bytes("\xc3")));          // cut character
    EXPECT_FALSE(printable_utf8(bytes("\xc0\xaf")));      // overlong
    EXPECT_FALSE(printable_utf8(bytes("\xed\xa0\x80")));  // surrogate
    EXPECT_EQ(event_text("custom", bytes("hi")), "custom: hi");
    EXPECT_EQ(event_text("typed 1", bytes("\x01")), "typed 1: 0x01");
    const std::string long_text(kMaxPayloadText + 10, 'x');
    const auto cut = event_text("custom", bytes(long_text));
    EXPECT_EQ(cut.size(), std::string("custom: ").size() + kMaxPayloadText + 3);
    EXPECT_EQ(cut.substr(cut.size() - 3), "\xe2\x80\xa6");
    EXPECT_EQ(call_text("f(int)", {}), "f(int)");
    EXPECT_EQ(call_text("g", std::vector<std::uint64_t>{1, 18446744073709551615ULL}),
              "g [1, 18446744073709551615]");
}

TEST(CallRateCounters, CountsEntriesPerMillisecondPerThread) {
    LogIndex index;
    ASSERT_TRUE(index.thread_for(5, true, 10));
    ASSERT_TRUE(index.thread_for(5, true, 11));
    ASSERT_TRUE(index.thread_for(0, false, 12));
    model::CounterCatalog catalog;
    CallRateCounters::declare(index, catalog);
    ASSERT_EQ(catalog.counters().size(), 3U);
    EXPECT_EQ(catalog.counters()[0].counter, "XRay_calls_5_10");
    EXPECT_EQ(catalog.counters()[2].counter, "XRay_calls_12");
    EXPECT_EQ(catalog.counters()[0].cls, model::CounterClass::Incident);
    auto counters = model::CaptureCounters::assign(catalog, catalog.defaults());

    CallRateCounters rates;
    rates.start(index, counters);
    std::vector<model::Event> out;
    rates.advance(100, out);  // first event: buckets end at whole milliseconds
    rates.count_call(0);
    rates.count_call(0);
    rates.count_call(1);
    rates.advance(999'999, out);
    EXPECT_TRUE(out.empty());
    rates.advance(3'500'000, out);  // the first millisecond ended
    rates.count_call(0);
    ASSERT_EQ(out.size(), 2U);
    const auto& s0 = std::get<model::CounterSample>(out[0]);
    EXPECT_EQ(s0.ts, 1'000'000);
    EXPECT_EQ(s0.value, 2);
    EXPECT_EQ(s0.key, *counters.key("XRay_calls_5_10"));
    EXPECT_EQ(std::get<model::CounterSample>(out[1]).value, 1);
    rates.finish(out);
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(std::get<model::CounterSample>(out[2]).ts, 4'000'000);
    EXPECT_EQ(std::get<model::CounterSample>(out[2]).value, 1);
}

}  // namespace
}  // namespace apcgate::collectors::xray
