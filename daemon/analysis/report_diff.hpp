// `apcgate diff A B`: the two reports' tables side by side (report_metrics.hpp), each row with
// its fields in A and B and the absolute and relative change, rows sorted by the largest
// absolute change of their section's primary field (then by name).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "daemon/analysis/fail_rule.hpp"
#include "daemon/analysis/report_metrics.hpp"

namespace apcgate::daemon::analysis {

struct DiffRow {
    std::string name;
    bool in_before = false, in_after = false;
    RowMetrics before, after;        // missing fields are 0
    double change = 0;               // of the primary field: after - before
    std::optional<double> relative;  // change / |before|; none when before is 0
};

struct DiffSection {
    const SectionFields* fields = nullptr;
    std::vector<DiffRow> rows;  // sorted
};

std::vector<DiffSection> diff_reports(const ReportMetrics& before, const ReportMetrics& after);

void write_diff_text(const std::vector<DiffSection>& diff, const std::vector<RuleVerdict>& verdicts,
                     std::size_t top, std::ostream& out);
nlohmann::json diff_json(const std::vector<DiffSection>& diff,
                         const std::vector<RuleVerdict>& verdicts, std::size_t top);
void write_diff_csv(const std::vector<DiffSection>& diff, std::size_t top, std::ostream& out);

}  // namespace apcgate::daemon::analysis
