// Which connection gives up its slot to a newcomer when all are taken.
#include "daemon/server/slot_policy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace apcgate::daemon {
namespace {

using std::chrono::seconds;
const std::chrono::steady_clock::time_point kT0{};

SlotState half_open(int since_s) {
    return {false, false, false, kT0 + seconds(since_s)};
}
SlotState idle(int since_s) {
    return {false, true, false, kT0 + seconds(since_s)};
}
SlotState capturing(int since_s) {
    return {false, true, true, kT0 + seconds(since_s)};
}
SlotState closing(int since_s) {
    return {true, true, false, kT0 + seconds(since_s)};
}

TEST(SlotPolicy, TheOldestHalfOpenConnectionGoesFirst) {
    const std::vector<SlotState> slots{idle(1), half_open(5), half_open(3), capturing(0)};
    EXPECT_EQ(slot_to_free(slots), std::optional<std::size_t>(2));
}

TEST(SlotPolicy, ThenTheLongestIdleOne) {
    const std::vector<SlotState> slots{idle(7), capturing(0), idle(4), idle(9)};
    EXPECT_EQ(slot_to_free(slots), std::optional<std::size_t>(2));
}

TEST(SlotPolicy, AClosingConnectionBeforeAnyOther) {
    const std::vector<SlotState> slots{half_open(0), closing(50), idle(0)};
    EXPECT_EQ(slot_to_free(slots), std::optional<std::size_t>(1));
}

TEST(SlotPolicy, ACaptureIsNeverCut) {
    const std::vector<SlotState> one{capturing(0)};
    EXPECT_EQ(slot_to_free(one), std::nullopt);
    SlotState finishing = capturing(0);
    finishing.closing = true;  // sending a finished capture's last frames
    const std::vector<SlotState> two{finishing};
    EXPECT_EQ(slot_to_free(two), std::nullopt);
    EXPECT_EQ(slot_to_free(std::vector<SlotState>{}), std::nullopt);
}

}  // namespace
}  // namespace apcgate::daemon
