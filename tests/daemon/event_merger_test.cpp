#include "daemon/event_merger.hpp"

#include <gtest/gtest.h>

namespace apcgate::daemon {
namespace {

model::Event idle(model::Nanos ts, int core) { return model::Idle{ts, core, -1}; }

std::vector<std::pair<model::Nanos, int>> drain(EventMerger& m, bool everything = false) {
    std::vector<std::pair<model::Nanos, int>> out;
    m.release([&](model::Event& e) { out.emplace_back(model::timestamp_of(e), std::get<model::Idle>(e).core); },
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
    EXPECT_EQ(drain(m), (std::vector<std::pair<model::Nanos, int>>{{10, 0}, {20, 1}, {30, 0}, {40, 1}}));
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

}  // namespace
}  // namespace apcgate::daemon
