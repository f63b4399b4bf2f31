// diff's tables: rows sorted by the largest absolute change of the section's primary field,
// rows only in one capture kept, relative change absent when there is nothing to compare with.
#include "daemon/analysis/report_diff.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace apcgate::daemon::analysis {
namespace {

TEST(ReportDiff, SortsByTheLargestChangeWhicheverItsSign) {
    ReportMetrics a, b;
    a["spans"]["small"]["total_ns"] = 100;
    b["spans"]["small"]["total_ns"] = 110;
    a["spans"]["shrank"]["total_ns"] = 1000;
    b["spans"]["shrank"]["total_ns"] = 200;
    a["spans"]["grew"]["total_ns"] = 1000;
    b["spans"]["grew"]["total_ns"] = 1500;
    b["spans"]["new"]["total_ns"] = 600;
    a["spans"]["same"]["total_ns"] = 5;
    b["spans"]["same"]["total_ns"] = 5;
    const auto diff = diff_reports(a, b);
    const DiffSection* spans = nullptr;
    for (const auto& s : diff)
        if (std::string(s.fields->section) == "spans") spans = &s;
    ASSERT_NE(spans, nullptr);
    std::vector<std::string> order;
    for (const auto& r : spans->rows) order.push_back(r.name);
    EXPECT_EQ(order, (std::vector<std::string>{"shrank", "new", "grew", "small", "same"}));
    EXPECT_DOUBLE_EQ(spans->rows[0].change, -800);
    EXPECT_DOUBLE_EQ(*spans->rows[0].relative, -0.8);
    EXPECT_FALSE(spans->rows[1].in_before);
    EXPECT_FALSE(spans->rows[1].relative.has_value());
    EXPECT_DOUBLE_EQ(*spans->rows[2].relative, 0.5);

    std::ostringstream text;
    write_diff_text(diff, {}, 0, text);
    EXPECT_NE(text.str().find("new"), std::string::npos);
    EXPECT_LT(text.str().find("shrank"), text.str().find("grew"));
    const auto j = diff_json(diff, {}, 2);
    ASSERT_EQ(j["spans"].size(), 2u);
    EXPECT_EQ(j["spans"][0]["name"], "shrank");
    EXPECT_EQ(j["spans"][0]["a"]["total_ns"], 1000.0);
    EXPECT_EQ(j["spans"][1]["a"]["total_ns"], nullptr);
}

}  // namespace
}  // namespace apcgate::daemon::analysis
