#include "collectors/ingest/ingest_report.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string_view>

#include "collectors/ingest/kind_tally.hpp"

namespace apcgate::collectors::ingest {
namespace {

TEST(IngestReport, CountsPerKindAndKeepsBoundedProblems) {
    IngestReport r("xray", "log.xray");
    r.read("Function");
    r.read("Function");
    r.mapped("Function");
    r.skipped("Function");
    for (int i = 0; i < 150; ++i) {
        Error e = Error::at(ErrorKind::Malformed, "bad");
        e.record = "CustomEvent";
        e.offset = static_cast<std::uint64_t>(i);
        r.bad_record(std::move(e));
    }
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(r.kinds().at("Function").read, 2U);
    EXPECT_EQ(r.kinds().at("Function").mapped, 1U);
    EXPECT_EQ(r.kinds().at("Function").skipped, 1U);
    EXPECT_EQ(r.kinds().at("CustomEvent").bad, 150U);
    EXPECT_EQ(r.problems().size(), IngestReport::kMaxKeptProblems);
    EXPECT_EQ(r.problem_count(), 150U);
    EXPECT_EQ(r.problems().front().input, "log.xray");
    r.stopped(Error::at(ErrorKind::Truncated, "truncated"));
    EXPECT_FALSE(r.complete());
    EXPECT_EQ(r.stop_reason()->message, "truncated");
    EXPECT_TRUE(r.stop_reason()->is(ErrorKind::Truncated));
    EXPECT_FALSE(r.stop_index());  // the list was full: the stop is not among the kept
}

// Kinds are found by their address; kinds whose addresses share a slot of the tally's table
// (512 bytes apart: 64 slots of 8 bytes) still count apart, whatever order they come in.
TEST(KindTally, KindsSharingASlotCountApart) {
    static std::array<char, 2048> text{};
    std::memcpy(text.data(), "one", 3);
    std::memcpy(text.data() + 512, "two", 3);
    std::memcpy(text.data() + 1024, "six", 3);
    const std::string_view one(text.data(), 3);
    const std::string_view two(text.data() + 512, 3);
    const std::string_view six(text.data() + 1024, 3);
    const std::string_view other(text.data() + 8, 0);  // another slot, an empty name
    KindTally tally;
    for (int i = 0; i < 5; ++i) {
        tally.read(one);
        tally.read(two);
        tally.mapped(two);
        tally.read(six);
        tally.skipped(six);
        tally.read(two);
        tally.read(other);
    }
    tally.mapped(one);
    IngestReport r("fxt", "t.fxt");
    tally.flush(r);
    EXPECT_EQ(r.kinds().at("one").read, 5U);
    EXPECT_EQ(r.kinds().at("one").mapped, 1U);
    EXPECT_EQ(r.kinds().at("two").read, 10U);
    EXPECT_EQ(r.kinds().at("two").mapped, 5U);
    EXPECT_EQ(r.kinds().at("six").read, 5U);
    EXPECT_EQ(r.kinds().at("six").skipped, 5U);
    EXPECT_EQ(r.kinds().at("").read, 5U);
    tally.read(one);  // counts start again from zero after a flush
    tally.flush(r);
    EXPECT_EQ(r.kinds().at("one").read, 6U);
}

// The stop is found among the problems by its place: a bad record with the same words is
// another problem.
TEST(IngestReport, TheStopIsFoundByItsPlaceNotByItsText) {
    IngestReport r("xray", "log.xray");
    r.bad_record(Error::at(ErrorKind::Malformed, "same words"));
    r.stopped(Error::at(ErrorKind::Truncated, "same words"));
    r.stopped(Error::at(ErrorKind::Malformed, "a later problem"));
    ASSERT_EQ(r.problems().size(), 3U);
    ASSERT_TRUE(r.stop_index());
    EXPECT_EQ(*r.stop_index(), 1U);
    EXPECT_TRUE(r.problems()[*r.stop_index()].is(ErrorKind::Truncated));
    EXPECT_TRUE(r.stop_reason()->is(ErrorKind::Truncated));
}

TEST(IngestReport, ItsStatisticsAreTheTotalsOverKindsAndWhatWasLeftUnread) {
    IngestReport r("fxt", "trace.fxt");
    r.bytes_total = 1000;
    r.read("event", 5);
    r.mapped("event", 4);
    r.skipped("event");
    r.read("metadata", 2);
    r.skipped("metadata", 2);
    Error bad = Error::at(ErrorKind::Malformed, "bad");
    bad.record = "event";
    r.bad_record(std::move(bad));
    r.bytes_done = 600;
    IngestStatistics s = r.statistics();
    EXPECT_EQ(s[IngestStat::RecordsRead], 7U);
    EXPECT_EQ(s[IngestStat::RecordsMapped], 4U);
    EXPECT_EQ(s[IngestStat::RecordsSkipped], 3U);
    EXPECT_EQ(s[IngestStat::RecordsBad], 1U);
    EXPECT_EQ(s[IngestStat::Problems], 1U);
    EXPECT_EQ(s[IngestStat::BytesUnread], 0U);  // reading has not stopped: nothing is lost yet
    r.stopped(Error::at(ErrorKind::Truncated, "truncated"));
    s = r.statistics();
    EXPECT_EQ(s[IngestStat::Problems], 2U);
    EXPECT_EQ(s[IngestStat::BytesUnread], 400U);
    EXPECT_EQ(IngestStatistics::spec(IngestStat::BytesUnread).severity, model::Severity::DataLoss);
}

}  // namespace
}  // namespace apcgate::collectors::ingest
