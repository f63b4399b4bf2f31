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
}

}  // namespace
}  // namespace apcgate::collectors::ingest
