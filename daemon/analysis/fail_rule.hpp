// `diff --fail-if` rules: SECTION[NAME].FIELD OP VALUE, e.g.
//   spans[top(long)].total_ns > +10%     the span's total grew by more than 10 %
//   functions[*].self_samples > +500     any function's self samples grew by more than 500
//   spans[parse].p99_ns > 2000000        the second capture's p99 is above 2 ms
//   counters[cpu_freq].mean < -5%        the mean fell by more than 5 %
// SECTION and FIELD are those of report_metrics.hpp; NAME is a row's name as `diff` prints it,
// or * for every row (the name runs to the last "]." of the rule, so it may hold brackets).
// OP is >, >=, < or <=. VALUE with a sign (+N, -N) compares the change B - A; with % (+N%, N%,
// -N%) the relative change (B - A) / A in percent (a row only in B changes by +infinity, one
// only in A by -100 %); a plain N compares B's value. A rule trips when any row it names
// compares true; a NAME in neither capture trips nothing and is reported.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/analysis/report_metrics.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon::analysis {

enum class CompareOp { Greater, GreaterEqual, Less, LessEqual };
enum class RuleValue { After, Change, RelativeChange };

struct FailRule {
    std::string text;                  // as given
    std::string section, name, field;  // name "*": every row
    CompareOp op = CompareOp::Greater;
    RuleValue what = RuleValue::After;
    double value = 0;  // percent for RelativeChange
};

// A malformed rule (unknown section or field, no operator, a value that is no number) is an
// error naming what is wrong; the caller treats it as a usage error.
Result<FailRule> parse_fail_rule(const std::string& text);

struct RuleVerdict {
    const FailRule* rule = nullptr;
    std::vector<std::string> tripped_rows;  // rows that compared true
    bool matched_any = false;               // some row had the name
};

RuleVerdict evaluate(const FailRule& rule, const ReportMetrics& before, const ReportMetrics& after);

}  // namespace apcgate::daemon::analysis
