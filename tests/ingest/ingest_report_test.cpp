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

}  // namespace
}  // namespace apcgate::collectors::ingest
