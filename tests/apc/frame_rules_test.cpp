// The frame rule checker flags each rule on a hand-built bad stream and passes good ones.
#include "protocol/apc/frame_rules.hpp"

#include <gtest/gtest.h>

#include "apc_test_support.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::cat;
using testing::packed_string;
using testing::raw;

const Bytes kSummary =
    cat({{0x01, 0x01}, packed_string("1\n2\r\n3\r4\n\r5"), {0x00, 0x00, 0x00}, packed_string("")});
const std::vector<model::CounterKey> kKeys{3, 4, 5, 7};
constexpr std::int32_t kCores = 4;  // captured.xml's <target cores="4">
// An Activity frame with one Link message (ts 10, cookie 0, pid 5, tid 5): a required message
// for streams that test other rules and hold no counter.
const Bytes kLink{0x0D, 0x01, 0x0A, 0x00, 0x05, 0x05};

std::vector<Violation> check_frame_rules(std::span<const DecodedFrame> frames,
                                         std::vector<model::CounterKey> keys) {
    return apc::check_frame_rules(frames, std::move(keys), kCores);
}

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
    const auto v = check_frame_rules(stream({idle, kSummary, kLink}), kKeys);
    ASSERT_EQ(v.size(), 2U);
    EXPECT_EQ(v[0].offset, 1U);
    EXPECT_NE(v[0].text.find("first message is not the Summary"), std::string::npos);
    EXPECT_EQ(v[1].offset, 5U);
    EXPECT_NE(v[1].text.find("not the first message"), std::string::npos);
}

TEST(FrameRules, SummaryExactlyOnce) {
    expect_one(check_frame_rules(stream({kSummary, kSummary, kLink}), kKeys), kSummary.size() + 1,
               "more than one Summary");
    const auto none = check_frame_rules(std::vector<DecodedFrame>{}, kKeys);
    ASSERT_EQ(none.size(), 2U);
    EXPECT_EQ(none[0].offset, 0U);
    EXPECT_NE(none[0].text.find("no Summary message"), std::string::npos);
    EXPECT_NE(none[1].text.find("Required Messages"), std::string::npos);
    // Extra CPU Core Name messages in later Summary frames are fine.
    const Bytes core_name = cat({{0x01, 0x03, 0x00, 0x01}, packed_string("A")});
    EXPECT_TRUE(check_frame_rules(stream({kSummary, core_name, kLink}), kKeys).empty());
}

TEST(FrameRules, NewlineCanaryMustBeExact) {
    const Bytes bad = cat(
        {{0x01, 0x01}, packed_string("1\n2\n3\r4\n\r5"), {0x00, 0x00, 0x00}, packed_string("")});
    expect_one(check_frame_rules(stream({bad, kLink}), kKeys), 1, "canary");
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
    expect_one(check_frame_rules(
                   stream({kSummary, sched_c1_late, sched_c2_early, sched_c1_early, kLink}), kKeys),
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
    expect_one(check_frame_rules(stream({kSummary, bt, kLink}), kKeys), kSummary.size() + 2,
               "without End of Message");
}

TEST(FrameRules, DisconnectFrameHoldsNothingElse) {
    const Bytes disconnect{0x0A, 0x7F, 0x02, 'x', 'y'};
    expect_one(check_frame_rules(stream({kSummary, disconnect, kLink}), kKeys), kSummary.size() + 1,
               "2 bytes after the id");
}

// "To generate a valid capture at least one Activity, Counter or Block Counter message must be
// present": names and annotations alone make no capture, and neither does a Block Counter frame
// that holds only a timestamp. Reported at the end of the data.
TEST(FrameRules, ACaptureNeedsAnActivityOrCounterMessage) {
    const Bytes annotate = cat({{0x06, 0x00, 0x05, 0x0A, 0x02}, raw("hi")});
    const Bytes thread_name = cat({{0x03, 0x00, 0x02, 0x0A, 0x05}, packed_string("t")});
    const Bytes block_ts_only{0x05, 0x00, 0x00, 0x0A};
    const std::uint64_t end =
        kSummary.size() + annotate.size() + thread_name.size() + block_ts_only.size();
    expect_one(check_frame_rules(stream({kSummary, annotate, thread_name, block_ts_only}), kKeys),
               end, "no Activity, Counter or Block Counter message");
    // Each of the three is enough.
    const Bytes counter{0x04, 0x0A, 0x00, 0x03, 0x01};
    const Bytes block{0x05, 0x00, 0x00, 0x0A, 0x04, 0x01};
    const Bytes activity_switch{0x0D, 0x02, 0x0A, 0x00, 0x07, 0x01, 0x05, 0x00};
    for (const Bytes& one : {counter, block, activity_switch, kLink})
        EXPECT_TRUE(check_frame_rules(stream({kSummary, annotate, one}), kKeys).empty());
}

// Every core a message names must be one captured.xml declares (here 4: cores 0..3), wherever
// the core travels: a frame header, a message field, a Block Counter key 2.
TEST(FrameRules, EveryCoreIsBelowTheDeclaredCoreCount) {
    const Bytes counter_ok{0x04, 0x0A, 0x03, 0x03, 0x01};  // core 3: the last declared
    EXPECT_TRUE(check_frame_rules(stream({kSummary, counter_ok}), kKeys).empty());
    const Bytes counter{0x04, 0x0A, 0x04, 0x03, 0x01};  // core 4
    expect_one(check_frame_rules(stream({kSummary, counter}), kKeys), kSummary.size() + 1,
               "Counter message core 4 is not one of the 4 cores");
    const Bytes annotate = cat({{0x06, 0x06, 0x05, 0x0A, 0x02}, raw("hi")});  // core 6
    expect_one(check_frame_rules(stream({kSummary, annotate, kLink}), kKeys), kSummary.size() + 1,
               "Annotate message core 6");
    const Bytes block{0x05, 0x00, 0x00, 0x0A, 0x02, 0x05, 0x03, 0x01};  // key 2 = core 5
    expect_one(check_frame_rules(stream({kSummary, block}), kKeys), kSummary.size() + 4,
               "Block Counter (key 2) core 5");
    const Bytes sched{0x07, 0x09, 0x01, 0x0A, 0x05, 0x00};  // header core 9
    expect_one(check_frame_rules(stream({kSummary, sched, kLink}), kKeys), kSummary.size(),
               "frame header core 9");
    const Bytes activity_switch{0x0D, 0x02, 0x0A, 0x7F, 0x07, 0x01, 0x05, 0x00};  // core -1
    expect_one(check_frame_rules(stream({kSummary, activity_switch}), kKeys), kSummary.size() + 1,
               "Activity Switch message core -1");
    const Bytes idle{0x09, 0x7F, 0x0A, 0x04};  // core 4
    expect_one(check_frame_rules(stream({kSummary, idle, kLink}), kKeys), kSummary.size() + 1,
               "Idle message core 4");
    const Bytes core_name = cat({{0x01, 0x03, 0x04, 0x01}, packed_string("A")});  // core 4
    expect_one(check_frame_rules(stream({kSummary, core_name, kLink}), kKeys), kSummary.size() + 1,
               "CPU Core Name message core 4");
}

// Wait and idle states are the values the spec gives them meaning for.
TEST(FrameRules, StatesAreOnesTheSpecDefines) {
    const Bytes activity_switch{0x0D, 0x02, 0x0A, 0x00, 0x07, 0x01, 0x05, 0x03};  // wait 3
    expect_one(check_frame_rules(stream({kSummary, activity_switch}), kKeys), kSummary.size() + 1,
               "wait state 3");
    const Bytes sched{0x07, 0x01, 0x01, 0x0A, 0x05, 0x7F};  // state -1
    expect_one(check_frame_rules(stream({kSummary, sched, kLink}), kKeys), kSummary.size() + 2,
               "Sched Switch state -1");
    const Bytes idle{0x09, 0x7E, 0x0A, 0x00};  // state -2
    expect_one(check_frame_rules(stream({kSummary, idle, kLink}), kKeys), kSummary.size() + 1,
               "Idle state -2");
    const Bytes fine{0x09, 0x7F, 0x0A, 0x00, 0x05, 0x14, 0x00};  // -1, then 5 (in wfi)
    EXPECT_TRUE(check_frame_rules(stream({kSummary, fine, kLink}), kKeys).empty());
}

}  // namespace
}  // namespace apcgate::apc
