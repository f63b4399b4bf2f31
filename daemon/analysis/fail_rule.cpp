#include "daemon/analysis/fail_rule.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

namespace apcgate::daemon::analysis {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

Error rule_error(const std::string& text, const std::string& why) {
    return Error::at(
        ErrorKind::Usage,
        "bad --fail-if rule '" + text + "': " + why +
            " (expected SECTION[NAME].FIELD OP VALUE, e.g. 'spans[main].total_ns > +10%')");
}

bool compare(double v, CompareOp op, double limit) {
    switch (op) {
        case CompareOp::Greater:
            return v > limit;
        case CompareOp::GreaterEqual:
            return v >= limit;
        case CompareOp::Less:
            return v < limit;
        case CompareOp::LessEqual:
            return v <= limit;
    }
    return false;
}

}  // namespace

Result<FailRule> parse_fail_rule(const std::string& text) {
    FailRule rule;
    rule.text = text;
    const std::string s = trim(text);
    // The operator: the last <, >, <=, >= (names may hold '<' and '>', values never do).
    const auto op_at = s.find_last_of("<>");
    if (op_at == std::string::npos) return rule_error(text, "no comparison (>, >=, <, <=)");
    std::string value = s.substr(op_at + 1);
    const char op_char = s[op_at];
    bool or_equal = false;
    if (!value.empty() && value[0] == '=') {
        or_equal = true;
        value.erase(0, 1);
    }
    rule.op = op_char == '>' ? (or_equal ? CompareOp::GreaterEqual : CompareOp::Greater)
                             : (or_equal ? CompareOp::LessEqual : CompareOp::Less);
    value = trim(value);
    const std::string left = trim(s.substr(0, op_at));

    // VALUE: [+|-]NUMBER[%]
    if (value.empty()) return rule_error(text, "no value after the comparison");
    const bool signed_value = value[0] == '+' || value[0] == '-';
    const bool relative = value.back() == '%';
    std::string number = relative ? value.substr(0, value.size() - 1) : value;
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (number.empty() || end == number.c_str() || *end != '\0' || !std::isfinite(v))
        return rule_error(text, "value '" + value + "' is not a number (N, +N, -N or N%)");
    rule.value = v;
    rule.what = relative ? RuleValue::RelativeChange
                         : (signed_value ? RuleValue::Change : RuleValue::After);

    // SECTION[NAME].FIELD
    const auto open = left.find('[');
    const auto close = left.rfind("].");
    if (open == std::string::npos || close == std::string::npos || close < open)
        return rule_error(text, "'" + left + "' is not SECTION[NAME].FIELD");
    rule.section = trim(left.substr(0, open));
    rule.name = left.substr(open + 1, close - open - 1);
    rule.field = trim(left.substr(close + 2));
    const SectionFields* section = find_section(rule.section);
    if (section == nullptr) {
        std::string known;
        for (const auto& f : section_fields())
            known += std::string(known.empty() ? "" : ", ") + f.section;
        return rule_error(text, "unknown section '" + rule.section + "' (one of " + known + ")");
    }
    bool field_known = false;
    std::string fields;
    for (const char* f : section->fields) {
        field_known = field_known || rule.field == f;
        fields += std::string(fields.empty() ? "" : ", ") + f;
    }
    if (!field_known)
        return rule_error(text, "unknown field '" + rule.field + "' of " + rule.section +
                                    " (one of " + fields + ")");
    if (rule.name.empty()) return rule_error(text, "empty NAME (use * for every row)");
    return rule;
}

RuleVerdict evaluate(const FailRule& rule, const ReportMetrics& before,
                     const ReportMetrics& after) {
    RuleVerdict verdict;
    verdict.rule = &rule;
    static const SectionMetrics kNone;
    const auto b_it = before.find(rule.section);
    const auto a_it = after.find(rule.section);
    const SectionMetrics& b = b_it == before.end() ? kNone : b_it->second;
    const SectionMetrics& a = a_it == after.end() ? kNone : a_it->second;
    std::set<std::string> rows;
    if (rule.name == "*") {
        for (const auto& [name, m] : b) rows.insert(name);
        for (const auto& [name, m] : a) rows.insert(name);
    } else if (b.contains(rule.name) || a.contains(rule.name)) {
        rows.insert(rule.name);
    }
    auto field_of = [&](const SectionMetrics& sm, const std::string& row) -> std::optional<double> {
        auto r = sm.find(row);
        if (r == sm.end()) return std::nullopt;
        auto f = r->second.find(rule.field);
        return f == r->second.end() ? 0.0 : f->second;
    };
    for (const auto& row : rows) {
        verdict.matched_any = true;
        const auto old_v = field_of(b, row);
        const auto new_v = field_of(a, row);
        const double x = old_v.value_or(0.0), y = new_v.value_or(0.0);
        double v = 0;
        switch (rule.what) {
            case RuleValue::After:
                v = y;
                break;
            case RuleValue::Change:
                v = y - x;
                break;
            case RuleValue::RelativeChange:
                if (x != 0) {
                    v = 100.0 * (y - x) / std::fabs(x);
                } else {
                    v = y == 0 ? 0.0
                               : (y > 0 ? std::numeric_limits<double>::infinity()
                                        : -std::numeric_limits<double>::infinity());
                }
                break;
        }
        if (compare(v, rule.op, rule.value)) verdict.tripped_rows.push_back(row);
    }
    return verdict;
}

}  // namespace apcgate::daemon::analysis
