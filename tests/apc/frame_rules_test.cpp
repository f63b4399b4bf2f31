// The frame rule checker flags each rule on a hand-built bad stream and passes good ones.
#include "protocol/apc/frame_rules.hpp"

#include <gtest/gtest.h>

#include "apc_test_support.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::cat;
using testing::S;

const Bytes kSummary = cat({{0x01, 0x01}, S("1\n2\r\n3\r4\n\r5"), {0x00, 0x00, 0x00}, S("")});
const std::vector<model::CounterKey> kKeys{3, 4, 5, 7};

// Decodes frames laid end to end (offsets as if in one file without length prefixes).
std::vector<DecodedFrame> stream(std::initializer_list<Bytes> bodies) {
    std::vector<DecodedFrame> out;
    std::uint64_t offset = 0;
    for (const auto& b : bodies) {
        auto f = decode_frame(b, offset);
        EXPECT_TRUE(f.ok()) << f.error().to_string();
        if (f.ok()) out.push_back(std::move(f).value());
        offset += b.size();
    }
    return out;
}

// The only violation, checked for its offset and a piece of its text.
void expect_one(const std::vector<Violation>& v, std::uint64_t offset, const std::string& text) {
    ASSERT_EQ(v.size(), 1U) << (v.empty() ? "none" : v[0].text + " / " + v.back().text);
    EXPECT_EQ(v[0].offset, offset);
    EXPECT_NE(v[0].text.find(text), std::string::npos) << v[0].text;
}

TEST(FrameRules, GoodStreamPasses) {
    const auto frames = stream({kSummary,
                                {0x04, 0x0A, 0x00, 0x05, 0x01, 0x0B, 0x01, 0x05, 0x02},
                                {0x05, 0x00, 0x00, 0x0A, 0x03, 0x01, 0x02, 0x01, 0x04, 0x02},
                                {0x02, 0x00, 0x0A, 0x07, 0x01, 0x02, 0x00, 0x10, 0x01},
                                {0x0A, 0x7F, 0x02}});
    EXPECT_TRUE(check_frame_rules(frames, kKeys).empty());
}

TEST(FrameRules, SummaryMustComeFirst) {
    const Bytes idle{0x09, 0x00, 0x01, 0x00};
    const auto v = check_frame_rules(stream({idle, kSummary}), kKeys);
    ASSERT_EQ(v.size(), 2U);
    EXPECT_EQ(v[0].offset, 1U);
    EXPECT_NE(v[0].text.find("first message is not the Summary"), std::string::npos);
    EXPECT_EQ(v[1].offset, 5U);
    EXPECT_NE(v[1].text.find("not the first message"), std::string::npos);
}

TEST(FrameRules, SummaryExactlyOnce) {
    expect_one(check_frame_rules(stream({kSummary, kSummary}), kKeys), kSummary.size() + 1,
               "more than one Summary");
    expect_one(check_frame_rules(std::vector<DecodedFrame>{}, kKeys), 0, "no Summary message");
    // Extra CPU Core Name messages in later Summary frames are fine.
    const Bytes core_name = cat({{0x01, 0x03, 0x00, 0x01}, S("A")});
    EXPECT_TRUE(check_frame_rules(stream({kSummary, core_name}), kKeys).empty());
}

TEST(FrameRules, NewlineCanaryMustBeExact) {
    const Bytes bad = cat({{0x01, 0x01}, S("1\n2\n3\r4\n\r5"), {0x00, 0x00, 0x00}, S("")});
    expect_one(check_frame_rules(stream({bad}), kKeys), 1, "canary");
}

TEST(FrameRules, TimestampsInOrderWithinAFrame) {
    // Counter ts 20 core 0, then ts 10 core 1 in the same frame.
    const Bytes counter{0x04, 0x14, 0x00, 0x05, 0x01, 0x0A, 0x01, 0x05, 0x02};
    expect_one(check_frame_rules(stream({kSummary, counter}), kKeys), kSummary.size() + 5,
               "timestamp 10 before 20");
}

TEST(FrameRules, TimestampsInOrderPerCoreAcrossFrames) {
    const Bytes sched_c1_late{0x07, 0x01, 0x01, 0x14, 0x05, 0x00};
    const Bytes sched_c2_early{0x07, 0x02, 0x01, 0x0A, 0x05, 0x00};  // other core: fine
    const Bytes sched_c1_early{0x07, 0x01, 0x01, 0x0A, 0x05, 0x00};
    const std::uint64_t at = kSummary.size() + 12 + 2;
    expect_one(
        check_frame_rules(stream({kSummary, sched_c1_late, sched_c2_early, sched_c1_early}), kKeys),
        at, "on core 1");
}

TEST(FrameRules, BlockCounterCoresKeepTheirOrderAcrossFrames) {
    // Frame 1: ts 20 on core 2. Frame 2: ts 10 on core 0 (fine), then core 2 (goes back).
    const Bytes f1{0x05, 0x00, 0x00, 0x14, 0x02, 0x02, 0x03, 0x01};
    const Bytes f2{0x05, 0x00, 0x00, 0x0A, 0x03, 0x01, 0x02, 0x02, 0x03, 0x01};
    expect_one(check_frame_rules(stream({kSummary, f1, f2}), kKeys),
               kSummary.size() + f1.size() + 8, "on core 2");
}

TEST(FrameRules, BlockCounterFrameStartsWithKey0) {
    const Bytes block{0x05, 0x00, 0x03, 0x01, 0x00, 0x0A, 0x03, 0x02};
    expect_one(check_frame_rules(stream({kSummary, block}), kKeys), kSummary.size(),
               "does not start with a timestamp");
}

TEST(FrameRules, CounterKeysMustBeKnown) {
    const Bytes counter{0x04, 0x0A, 0x00, 0x09, 0x01};
    expect_one(check_frame_rules(stream({kSummary, counter}), kKeys), kSummary.size() + 1,
               "counter key 9 is not in captured.xml");
    const Bytes activity{0x0D, 0x02, 0x0A, 0x00, 0x08, 0x01, 0x05, 0x00};
    expect_one(check_frame_rules(stream({kSummary, activity}), kKeys), kSummary.size() + 1,
               "counter key 8");
}

TEST(FrameRules, KeyInBothCounterAndBlockCounterFrames) {
    const Bytes counter{0x04, 0x0A, 0x00, 0x03, 0x01};
    const Bytes block{0x05, 0x00, 0x00, 0x0B, 0x03, 0x01};
    expect_one(check_frame_rules(stream({kSummary, counter, block}), kKeys),
               kSummary.size() + counter.size() + 4, "both Counter and Block Counter");
}

TEST(FrameRules, BacktraceNeedsEndOfMessage) {
    const Bytes bt{0x02, 0x00, 0x0A, 0x07, 0x01, 0x02, 0x00, 0x10};  // frame ends after a pair
    expect_one(check_frame_rules(stream({kSummary, bt}), kKeys), kSummary.size() + 2,
               "without End of Message");
}

TEST(FrameRules, DisconnectFrameHoldsNothingElse) {
    const Bytes disconnect{0x0A, 0x7F, 0x02, 'x', 'y'};
    expect_one(check_frame_rules(stream({kSummary, disconnect}), kKeys), kSummary.size() + 1,
               "2 bytes after the id");
}

}  // namespace
}  // namespace apcgate::apc
