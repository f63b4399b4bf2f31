// The --fail-if rule syntax: what parses, what is refused (a usage error) and how rules judge
// two reports.
#include "daemon/analysis/fail_rule.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace apcgate::daemon::analysis {
namespace {

TEST(FailRule, ParsesTheIssuesExample) {
    auto r = parse_fail_rule("spans[top(long)].total_ns > +10%");
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->section, "spans");
    EXPECT_EQ(r->name, "top(long)");
    EXPECT_EQ(r->field, "total_ns");
    EXPECT_EQ(r->op, CompareOp::Greater);
    EXPECT_EQ(r->what, RuleValue::RelativeChange);
    EXPECT_DOUBLE_EQ(r->value, 10.0);
}

TEST(FailRule, ParsesEveryFormOfValueAndOperator) {
    auto abs_change = parse_fail_rule("functions[*].self_samples>=+500");
    ASSERT_TRUE(abs_change);
    EXPECT_EQ(abs_change->name, "*");
    EXPECT_EQ(abs_change->op, CompareOp::GreaterEqual);
    EXPECT_EQ(abs_change->what, RuleValue::Change);
    auto after = parse_fail_rule("  spans[parse].p99_ns < 2000000 ");
    ASSERT_TRUE(after);
    EXPECT_EQ(after->what, RuleValue::After);
    EXPECT_EQ(after->op, CompareOp::Less);
    auto fall = parse_fail_rule("counters[cpu_freq].mean <= -5%");
    ASSERT_TRUE(fall);
    EXPECT_EQ(fall->op, CompareOp::LessEqual);
    EXPECT_EQ(fall->what, RuleValue::RelativeChange);
    EXPECT_DOUBLE_EQ(fall->value, -5.0);
    // Names may hold brackets, dots and angle brackets.
    auto tricky =
        parse_fail_rule("spans[std::vector<int>::operator[](unsigned long) [1]].count > 3");
    ASSERT_TRUE(tricky) << tricky.error().to_string();
    EXPECT_EQ(tricky->name, "std::vector<int>::operator[](unsigned long) [1]");
    EXPECT_EQ(tricky->field, "count");
}

TEST(FailRule, RefusesMalformedRules) {
    for (const char* bad :
         {"", "spans[x].total_ns", "spans[x].total_ns >", "spans[x].total_ns > ten",
          "spans[x].total_ns > 10%%", "bogus[x].total_ns > 1", "spans[x].bogus > 1",
          "spans.total_ns > 1", "spans[].total_ns > 1", "spans[x]total_ns > 1",
          "spans[x].total_ns > inf"}) {
        auto r = parse_fail_rule(bad);
        EXPECT_FALSE(r) << "'" << bad << "' parsed";
        if (!r) {
            EXPECT_NE(r.error().message.find("bad --fail-if rule"), std::string::npos);
        }
    }
}

ReportMetrics spans_with(const std::map<std::string, double>& totals) {
    ReportMetrics m;
    for (const auto& [name, total] : totals) m["spans"][name]["total_ns"] = total;
    return m;
}

TEST(FailRule, RelativeChangeTripsOnlyPastItsLimit) {
    const auto a = spans_with({{"f", 1000}, {"g", 1000}});
    const auto b = spans_with({{"f", 2000}, {"g", 1050}});
    auto f_rule = parse_fail_rule("spans[f].total_ns > +10%").value();
    auto g_rule = parse_fail_rule("spans[g].total_ns > +10%").value();
    EXPECT_EQ(evaluate(f_rule, a, b).tripped_rows, std::vector<std::string>{"f"});
    const auto g = evaluate(g_rule, a, b);
    EXPECT_TRUE(g.matched_any);
    EXPECT_TRUE(g.tripped_rows.empty());
    auto any = parse_fail_rule("spans[*].total_ns > +10%").value();
    EXPECT_EQ(evaluate(any, a, b).tripped_rows, std::vector<std::string>{"f"});
    // Unchanged: nothing trips.
    EXPECT_TRUE(evaluate(any, a, a).tripped_rows.empty());
}

TEST(FailRule, NewAndGoneRowsAndAbsoluteValues) {
    const auto a = spans_with({{"old", 500}});
    const auto b = spans_with({{"new", 10}});
    EXPECT_EQ(
        evaluate(parse_fail_rule("spans[new].total_ns > +1000%").value(), a, b).tripped_rows.size(),
        1u);
    EXPECT_EQ(
        evaluate(parse_fail_rule("spans[old].total_ns < -99%").value(), a, b).tripped_rows.size(),
        1u);
    EXPECT_EQ(
        evaluate(parse_fail_rule("spans[old].total_ns < -400").value(), a, b).tripped_rows.size(),
        1u);
    EXPECT_EQ(
        evaluate(parse_fail_rule("spans[new].total_ns > 9").value(), a, b).tripped_rows.size(), 1u);
    EXPECT_EQ(
        evaluate(parse_fail_rule("spans[new].total_ns > 10").value(), a, b).tripped_rows.size(),
        0u);
    const auto none = evaluate(parse_fail_rule("spans[absent].total_ns > 0").value(), a, b);
    EXPECT_FALSE(none.matched_any);
    EXPECT_TRUE(none.tripped_rows.empty());
}

}  // namespace
}  // namespace apcgate::daemon::analysis
