// EventOrder, the Barman source's reorder window, on its own: samples and events in, runs out
// in time order.
#include "collectors/barman/event_order.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <variant>
#include <vector>

namespace apcgate::barman_test {
namespace {

// EventOrder releases each stretch of samples no event interrupts as one SampleRun, in time
// order (store order among equal times), copying the records that follow one another in its
// buffer together; a record older than what was released is moved up to the watermark, counted
// per sample.
TEST(BarmanEventOrder, SampleRunsAreInTimeOrderAndLateRecordsMovedUp) {
    collectors::barman::EventOrder order(2);
    auto add = [&](model::Nanos ts, const std::vector<std::int64_t>& values) {
        for (const std::int64_t v : values)
            order.incoming_samples().push_back(model::Sample{ts, v, 0, 3, -1, 0});
        order.add_record(ts);
    };
    auto values_of = [](const model::Event& e) {
        std::vector<std::pair<model::Nanos, std::int64_t>> v;
        for (const model::Sample& s : std::get<model::SampleRun>(e).samples)
            v.emplace_back(s.ts, s.value);
        return v;
    };
    using Values = std::vector<std::pair<model::Nanos, std::int64_t>>;
    add(10, {1, 2});
    add(20, {3});
    add(15, {4, 5});  // committed after a later record
    add(30, {6});
    add(30, {7});
    order.incoming().emplace_back(model::Idle{40, 0, 0});
    order.add_record(40);
    add(50, {8});
    add(60, {9, 10});
    add(60, {11});
    std::vector<model::Event> out;
    EXPECT_EQ(order.release(out, true), 60);
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(values_of(out[0]),
              (Values{{10, 1}, {10, 2}, {15, 4}, {15, 5}, {20, 3}, {30, 6}, {30, 7}}));
    EXPECT_TRUE(std::holds_alternative<model::Idle>(out[1]));
    EXPECT_EQ(values_of(out[2]), (Values{{50, 8}, {60, 9}, {60, 10}, {60, 11}}));
    EXPECT_EQ(order.moved_up(), 0U);

    add(55, {12, 13});  // before the watermark: moved up to it
    add(70, {14});
    add(80, {15});
    out.clear();
    EXPECT_EQ(order.release(out, true), 80);
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(values_of(out[0]), (Values{{60, 12}, {60, 13}, {70, 14}, {80, 15}}));
    EXPECT_EQ(order.moved_up(), 2U);
}

}  // namespace
}  // namespace apcgate::barman_test
