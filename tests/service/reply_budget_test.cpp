// The discovery answer budget: a burst, then refusals, then refills with (injected) time.
#include "daemon/service/reply_budget.hpp"

#include <gtest/gtest.h>

namespace apcgate::daemon {
namespace {

using namespace std::chrono_literals;

TEST(ReplyBudget, ABurstIsAnsweredThenRequestsAreRefused) {
    ReplyBudget b(10.0, 3.0);
    const auto t = ReplyBudget::Clock::time_point{} + 100s;
    EXPECT_TRUE(b.take(t));
    EXPECT_TRUE(b.take(t));
    EXPECT_TRUE(b.take(t));
    EXPECT_FALSE(b.take(t));
    EXPECT_FALSE(b.take(t));
    EXPECT_EQ(b.refused(), 2U);
}

TEST(ReplyBudget, TimeRefillsUpToTheBurstOnly) {
    ReplyBudget b(10.0, 2.0);
    auto t = ReplyBudget::Clock::time_point{} + 100s;
    EXPECT_TRUE(b.take(t));
    EXPECT_TRUE(b.take(t));
    EXPECT_FALSE(b.take(t));
    t += 100ms;  // one token at 10 per second
    EXPECT_TRUE(b.take(t));
    EXPECT_FALSE(b.take(t));
    t += 1h;  // a long pause refills to the burst, not beyond
    EXPECT_TRUE(b.take(t));
    EXPECT_TRUE(b.take(t));
    EXPECT_FALSE(b.take(t));
}

TEST(ReplyBudget, ATimeGoingBackwardsGrantsNothing) {
    ReplyBudget b(10.0, 1.0);
    const auto t = ReplyBudget::Clock::time_point{} + 100s;
    EXPECT_TRUE(b.take(t));
    EXPECT_FALSE(b.take(t - 50s));
    EXPECT_FALSE(b.take(t));
}

}  // namespace
}  // namespace apcgate::daemon
