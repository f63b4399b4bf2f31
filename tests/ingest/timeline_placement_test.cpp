#include "collectors/ingest/timeline_placement.hpp"

#include <gtest/gtest.h>

namespace apcgate::collectors::ingest {
namespace {

TimelineInput input(std::string label, model::Nanos origin, std::string domain,
                    std::optional<model::Nanos> to_monotonic = std::nullopt) {
    return {std::move(label), origin, InputClock{std::move(domain), to_monotonic, "clock"}};
}

TEST(TimelinePlacement, InputsOfOneDomainKeepTheirDistancesFromTheEarliest) {
    const auto p = place_on_timeline({input("a", 5'000, "xray"), input("b", 2'000, "xray")});
    EXPECT_FALSE(p.monotonic);
    EXPECT_EQ(p.zero, 2'000);
    EXPECT_EQ(p.input_zero, (std::vector<model::Nanos>{2'000, 2'000}));
    EXPECT_TRUE(p.notes.empty());
}

TEST(TimelinePlacement, InputsRelatedToMonotonicLineUpOnIt) {
    // An XRay log (TSC ns, +100 s to CLOCK_MONOTONIC) and an LTTng trace (realtime-like ns,
    // -1e9 s to CLOCK_MONOTONIC) of one run: the trace's first event is 1 s after the log's.
    const model::Nanos mono_first = 500'000'000'000;
    const auto p =
        place_on_timeline({input("log", mono_first - 100'000'000'000, "xray", 100'000'000'000),
                           input("trace", mono_first + 1'000'000'000 + 1'000'000'000'000'000'000,
                                 "unix-epoch", -1'000'000'000'000'000'000)});
    EXPECT_TRUE(p.monotonic);
    EXPECT_EQ(p.zero, mono_first);
    // Each input's first event minus its zero is its place on the capture's timeline.
    EXPECT_EQ(mono_first - 100'000'000'000 - p.input_zero[0], 0);
    EXPECT_EQ(mono_first + 1'000'000'000 + 1'000'000'000'000'000'000 - p.input_zero[1],
              1'000'000'000);
    EXPECT_TRUE(p.notes.empty());
    EXPECT_EQ(p.how[1], "CLOCK_MONOTONIC");
}

TEST(TimelinePlacement, ADomainUsesOneRelationForAllItsInputs) {
    // Two logs of one machine: the second's own relation differs by a microsecond, but their
    // TSCs are one clock, so the first's relation places both.
    const auto p =
        place_on_timeline({input("a", 1'000, "xray", 50'000), input("b", 3'000, "xray", 51'000)});
    EXPECT_EQ(3'000 - p.input_zero[1] - (1'000 - p.input_zero[0]), 2'000);
}

TEST(TimelinePlacement, AnInputOfAnotherDomainWithoutARelationStartsAtTheCaptureStart) {
    const auto p = place_on_timeline({input("log", 7'000, "xray", 1'000'000),
                                      input("fxt", 9'000'000'000, "fxt"),
                                      input("fxt2", 9'500'000'000, "fxt")});
    EXPECT_TRUE(p.monotonic);
    EXPECT_EQ(p.zero, 1'007'000);
    EXPECT_EQ(7'000 - p.input_zero[0], 0);
    EXPECT_EQ(9'000'000'000 - p.input_zero[1], 0);
    EXPECT_EQ(9'500'000'000 - p.input_zero[2], 500'000'000);  // its domain stays together
    ASSERT_EQ(p.notes.size(), 2U);
    EXPECT_NE(p.notes[0].find("fxt (clock): its clock has no known relation"), std::string::npos);
}

TEST(TimelinePlacement, WithoutAnyRelationTheFirstDomainIsTheReference) {
    const auto p =
        place_on_timeline({input("barman", 4'000, "barman"), input("fxt", 90'000, "fxt")});
    EXPECT_FALSE(p.monotonic);
    EXPECT_EQ(p.zero, 4'000);
    EXPECT_EQ(p.input_zero, (std::vector<model::Nanos>{4'000, 90'000}));
    ASSERT_EQ(p.notes.size(), 1U);
    EXPECT_EQ(p.notes[0].rfind("fxt", 0), 0U);
}

TEST(TimelinePlacement, InputsWithoutADomainAreEachTheirOwn) {
    const auto p = place_on_timeline({input("a", 10, ""), input("b", 500, "")});
    EXPECT_EQ(p.input_zero, (std::vector<model::Nanos>{10, 500}));
    EXPECT_EQ(p.notes.size(), 1U);
}

TEST(TimelinePlacement, InputsWithoutEventsDoNotMoveTheZero) {
    const auto p = place_on_timeline(
        {input("empty", kNever, "xray", 10), input("trace", 2'000, "unix-epoch", -1'000)});
    EXPECT_EQ(p.zero, 1'000);
    EXPECT_EQ(2'000 - p.input_zero[1], 0);
    const auto none = place_on_timeline({input("empty", kNever, "xray")});
    EXPECT_EQ(none.zero, 0);
}

TEST(TimelinePlacement, ARelationThatWouldOverflowIsNoRelation) {
    const model::Nanos huge = std::numeric_limits<model::Nanos>::max() - 10;
    const auto p = place_on_timeline(
        {input("sane", 1'000, "unix-epoch", -500), input("hostile", huge, "xray", huge)});
    EXPECT_TRUE(p.monotonic);
    EXPECT_EQ(p.zero, 500);
    EXPECT_EQ(p.input_zero[1], huge);  // placed at the start, by itself
    EXPECT_EQ(p.notes.size(), 1U);
}

}  // namespace
}  // namespace apcgate::collectors::ingest
