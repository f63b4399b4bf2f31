// `apcgate report`'s losses come from one table (analysis_statistics.hpp): the text, --json and
// --csv writers print each non-zero loss in table order with its name, count, severity and
// description, and the detail only the capture could give.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "daemon/analysis/report_output.hpp"

namespace apcgate::daemon::analysis {
namespace {

std::string description(AnalysisStat s) {
    return std::string(AnalysisStatistics::spec(s).description);
}

Report lossy() {
    Report r;
    r.capture = "c.apc";
    r.framing = "perf";
    r.losses.add(AnalysisStat::SpansOpenAtEnd, 2);
    r.losses.add(AnalysisStat::LostRecords, 3, "120 events dropped");
    r.losses.add(AnalysisStat::StacksFolded, 0, "past 4 distinct stacks");  // nothing lost
    return r;
}

TEST(ReportLosses, CountsAddUpAndOnlyNonZeroOnesAreLosses) {
    Losses l;
    EXPECT_TRUE(l.empty());
    l.add(AnalysisStat::NamesFolded, 0, "ignored");
    EXPECT_TRUE(l.empty());
    EXPECT_EQ(l.detail(AnalysisStat::NamesFolded), "");
    l.add(AnalysisStat::NamesFolded, 2, "past 8 distinct names");
    l.add(AnalysisStat::NamesFolded, 1);
    EXPECT_EQ(l[AnalysisStat::NamesFolded], 3U);
    EXPECT_EQ(l.detail(AnalysisStat::NamesFolded), "past 8 distinct names");
    ASSERT_EQ(l.values().size(), 1U);
    EXPECT_EQ(l.values()[0].spec->name, "names_folded");
    EXPECT_EQ(l.detail(l.values()[0]), "past 8 distinct names");
}

TEST(ReportLosses, JsonHasTheStatisticsShapeWithTheDetail) {
    const nlohmann::json j = report_json(lossy(), 0);
    ASSERT_EQ(j["losses"].size(), 2U) << j["losses"].dump(1);
    // Table order, not the order they were counted in.
    EXPECT_EQ(j["losses"][0]["name"], "lost_records");
    EXPECT_EQ(j["losses"][0]["value"], 3);
    EXPECT_EQ(j["losses"][0]["severity"], "data_loss");
    EXPECT_EQ(j["losses"][0]["description"], description(AnalysisStat::LostRecords));
    EXPECT_EQ(j["losses"][0]["detail"], "120 events dropped");
    EXPECT_EQ(j["losses"][1]["name"], "spans_open_at_end");
    EXPECT_EQ(j["losses"][1]["value"], 2);
    EXPECT_EQ(j["losses"][1]["detail"], "");
    EXPECT_TRUE(report_json(Report{}, 0)["losses"].empty());
}

TEST(ReportLosses, TextListsEachWithItsSeverityDescriptionAndDetail) {
    std::ostringstream out;
    write_text(lossy(), 0, out);
    EXPECT_NE(out.str().find("\nLosses\n  lost_records = 3 (data_loss): " +
                             description(AnalysisStat::LostRecords) +
                             "\n    120 events dropped\n  spans_open_at_end = 2 (data_loss): " +
                             description(AnalysisStat::SpansOpenAtEnd) + "\n"),
              std::string::npos)
        << out.str();
    EXPECT_EQ(out.str().find("stacks_folded"), std::string::npos) << out.str();
    std::ostringstream none;
    write_text(Report{}, 0, none);
    EXPECT_NE(none.str().find("\nLosses\n  none reported\n"), std::string::npos) << none.str();
}

TEST(ReportLosses, CsvColumnsAreTheJsonFields) {
    std::ostringstream out;
    write_csv(lossy(), 0, out);
    EXPECT_NE(out.str().find("\nsection,name,value,severity,description,detail\n"
                             "losses,lost_records,3,data_loss," +
                             csv_field(description(AnalysisStat::LostRecords)) +
                             ",120 events dropped\nlosses,spans_open_at_end,2,data_loss," +
                             csv_field(description(AnalysisStat::SpansOpenAtEnd)) + ",\n"),
              std::string::npos)
        << out.str();
}

}  // namespace
}  // namespace apcgate::daemon::analysis
