#include "collectors/ingest/ingest_report.hpp"

#include <gtest/gtest.h>

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
