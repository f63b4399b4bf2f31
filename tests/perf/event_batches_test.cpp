// EventBatches, the queue between the perf reader thread and poll(): events leave in the order
// they were handed over, at most `max` a take, a batch that fits an empty vector whole (by swap,
// its storage and all), and the vectors that come back are reused for the next batches.
#include "collectors/perf/event_batches.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace apcgate::collectors::perf {
namespace {

std::vector<model::Event> idles(model::Nanos from, model::Nanos to) {
    std::vector<model::Event> v;
    for (model::Nanos t = from; t < to; ++t) v.emplace_back(model::Idle{t, 0, 0});
    return v;
}

std::vector<model::Nanos> times(const std::vector<model::Event>& v) {
    std::vector<model::Nanos> t;
    t.reserve(v.size());
    for (const auto& e : v) t.push_back(model::timestamp_of(e));
    return t;
}

std::vector<model::Nanos> range(model::Nanos from, model::Nanos to) {
    std::vector<model::Nanos> t;
    for (; from < to; ++from) t.push_back(from);
    return t;
}

TEST(EventBatches, EventsLeaveInOrderAtMostMaxATake) {
    EventBatches q;
    auto batch = idles(0, 5);
    q.push(batch);
    EXPECT_TRUE(batch.empty());
    batch = idles(5, 8);
    q.push(batch);
    std::vector<model::Event> empty;
    q.push(empty);  // an empty batch queues nothing
    EXPECT_EQ(q.size(), 8U);
    EXPECT_EQ(model::timestamp_of(q.front()), 0);

    std::vector<model::Event> out;
    EXPECT_EQ(q.take(out, 3), 3U);  // part of the first batch
    EXPECT_EQ(times(out), range(0, 3));
    EXPECT_EQ(model::timestamp_of(q.front()), 3);
    EXPECT_EQ(q.take(out, 4), 4U);  // the rest of it and one of the next, appended
    EXPECT_EQ(times(out), range(0, 7));
    EXPECT_EQ(q.size(), 1U);
    EXPECT_EQ(model::timestamp_of(q.front()), 7);
    q.take_all(out);
    EXPECT_EQ(times(out), range(0, 8));
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.take(out, 10), 0U);
}

TEST(EventBatches, AWholeBatchChangesHandsWithoutACopyAndItsVectorsAreReused) {
    EventBatches q;
    auto batch = idles(0, 100);
    const model::Event* storage = batch.data();
    q.push(batch);

    std::vector<model::Event> out;
    out.reserve(500);  // the engine's vector, empty with room from its last poll
    const model::Event* engine_storage = out.data();
    EXPECT_EQ(q.take(out, 1000), 100U);
    EXPECT_EQ(out.data(), storage) << "the batch was copied, not handed over";
    EXPECT_EQ(times(out), range(0, 100));

    // The engine's vector came back empty and is what the reader's next batch is built in.
    batch = idles(100, 101);
    q.push(batch);
    EXPECT_TRUE(batch.empty());
    EXPECT_EQ(batch.data(), engine_storage);
    EXPECT_GE(batch.capacity(), 500U);

    // A take into a vector that already holds events appends (no swap).
    EXPECT_EQ(q.take(out, 10), 1U);
    EXPECT_EQ(times(out), range(0, 101));
}

// A caller that keeps appending to one vector (as the live tests do) sees it grow
// geometrically: reserving room for each take alone reallocated it, events and all, at every
// take, and a sanitizer build's polls then never caught up.
TEST(EventBatches, AVectorThatKeepsGrowingIsReallocatedRarely) {
    EventBatches q;
    std::vector<model::Event> out;
    int reallocations = 0;
    for (model::Nanos t = 0; t < 2000; ++t) {
        auto batch = idles(t, t + 1);
        q.push(batch);
        const model::Event* before = out.data();
        EXPECT_EQ(q.take(out, 10), 1U);
        if (out.data() != before) ++reallocations;
    }
    EXPECT_EQ(times(out), range(0, 2000));
    EXPECT_LE(reallocations, 16);
}

}  // namespace
}  // namespace apcgate::collectors::perf
