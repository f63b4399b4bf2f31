#include "daemon/capture/event_merger.hpp"

#include <gtest/gtest.h>

#include <string>

namespace apcgate::daemon {
namespace {

model::Event idle(model::Nanos ts, int core) {
    return model::Idle{ts, core, -1};
}

// Merges `run` (source 0) with idle events at 30 and 45 (source 1), both finished, and lists
// what is emitted: `item(e, out)` appends a run's pending items, "|" ends each emitted event.
template <typename Item>
std::vector<std::string> split_around_idles(model::Event run, Item item) {
    EventMerger m(2);
    std::vector<model::Event> a;
    a.push_back(std::move(run));
    std::vector<model::Event> b{idle(30, 7), idle(45, 8)};
    m.push(1, b, 100, true);
    m.push(0, a, 100, true);
    std::vector<std::string> order;
    m.release([&](model::Event& e) {
        if (item(e, order))
            order.emplace_back("|");  // where one emitted event ends
        else
            order.push_back("idle" + std::to_string(model::timestamp_of(e)));
    });
    EXPECT_EQ(m.pending(), 0U);
    return order;
}

std::vector<std::pair<model::Nanos, int>> drain(EventMerger& m, bool everything = false) {
    std::vector<std::pair<model::Nanos, int>> out;
    m.release(
        [&](model::Event& e) {
            out.emplace_back(model::timestamp_of(e), std::get<model::Idle>(e).core);
        },
        everything);
    return out;
}

TEST(EventMerger, ReleasesOnlyUpToTheSlowestWatermark) {
    EventMerger m(2);
    std::vector<model::Event> a{idle(10, 0), idle(30, 0), idle(50, 0)};
    m.push(0, a, 50, false);
    EXPECT_TRUE(a.empty());
    // Source 1 has said nothing yet (watermark 0): nothing after 0 may go out.
    EXPECT_TRUE(drain(m).empty());
    std::vector<model::Event> b{idle(20, 1), idle(40, 1)};
    m.push(1, b, 40, false);
    EXPECT_EQ(drain(m),
              (std::vector<std::pair<model::Nanos, int>>{{10, 0}, {20, 1}, {30, 0}, {40, 1}}));
    EXPECT_EQ(m.pending(), 1U);
    std::vector<model::Event> none;
    m.push(1, none, 100, true);  // finished sources no longer hold the others back
    EXPECT_EQ(drain(m), (std::vector<std::pair<model::Nanos, int>>{{50, 0}}));
}

TEST(EventMerger, TiesKeepSourceThenArrivalOrder) {
    EventMerger m(2);
    std::vector<model::Event> a{idle(5, 0), idle(5, 1)};
    std::vector<model::Event> b{idle(5, 2)};
    m.push(1, b, 5, true);
    m.push(0, a, 5, true);
    EXPECT_EQ(drain(m), (std::vector<std::pair<model::Nanos, int>>{{5, 0}, {5, 1}, {5, 2}}));
}

TEST(EventMerger, EverythingDrainsAtTheEnd) {
    EventMerger m(2);
    std::vector<model::Event> a{idle(7, 0)};
    m.push(0, a, 7, false);
    EXPECT_TRUE(drain(m).empty());
    EXPECT_EQ(drain(m, true).size(), 1U);
}

// A SpanRun that reaches past another source's head is split there: its front goes first, the
// rest after the other source's event, and nothing is lost or reordered.
TEST(EventMerger, SplitsASpanRunAtAnotherSourcesHead) {
    model::SpanRun run;
    for (model::Nanos ts : {10, 20, 30, 40, 50}) run.add(ts, 0, 1, 2, "t" + std::to_string(ts));
    const auto order =
        split_around_idles(model::Event(std::move(run)), [](model::Event& e, auto& out) {
            auto* r = std::get_if<model::SpanRun>(&e);
            if (r == nullptr) return false;
            for (std::size_t k = r->first; k < r->items.size(); ++k)
                out.push_back(std::string(r->text(r->items[k])));
            return true;
        });
    // Ties keep source order: the run (source 0) goes before source 1's event at 30.
    EXPECT_EQ(order, (std::vector<std::string>{"t10", "t20", "t30", "|", "idle30", "t40", "|",
                                               "idle45", "t50", "|"}));
}

TEST(EventMerger, ASpanRunInsideTheWatermarkGoesWhole) {
    EventMerger m(2);
    model::SpanRun run;
    run.add(5, 0, 1, 2, "a");
    run.add(6, 0, 1, 2, "");
    std::vector<model::Event> a;
    a.emplace_back(std::move(run));
    m.push(0, a, 6, false);
    std::vector<model::Event> b{idle(9, 1)};
    m.push(1, b, 9, false);
    std::size_t runs = 0, items = 0;
    m.release([&](model::Event& e) {
        if (auto* r = std::get_if<model::SpanRun>(&e)) ++runs, items += r->pending();
    });
    EXPECT_EQ(runs, 1U);
    EXPECT_EQ(items, 2U);
}

// A SampleRun is split at another source's head as a SpanRun is.
TEST(EventMerger, SplitsASampleRunAtAnotherSourcesHead) {
    model::SampleRun run;
    for (model::Nanos ts : {10, 20, 30, 30, 40, 50}) run.samples.push_back({ts, ts, 0, 3});
    const auto order =
        split_around_idles(model::Event(std::move(run)), [](model::Event& e, auto& out) {
            auto* r = std::get_if<model::SampleRun>(&e);
            if (r == nullptr) return false;
            for (std::size_t k = r->first; k < r->samples.size(); ++k)
                out.push_back("s" + std::to_string(r->samples[k].ts));
            return true;
        });
    EXPECT_EQ(order, (std::vector<std::string>{"s10", "s20", "s30", "s30", "|", "idle30", "s40",
                                               "|", "idle45", "s50", "|"}));
}

}  // namespace
}  // namespace apcgate::daemon
