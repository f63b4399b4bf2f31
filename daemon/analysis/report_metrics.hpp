// A report's tables as numbers by section, row and field, the common ground of `diff` and its
// --fail-if rules: spans, functions, threads, processes, counters and instants, each row under
// a name stable from run to run (thread ids change, so a thread is "process/thread"; an instant
// is "kind:name"). Rows with the same name are summed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "daemon/analysis/report.hpp"

namespace apcgate::daemon::analysis {

using RowMetrics = std::map<std::string, double>;             // field -> value
using SectionMetrics = std::map<std::string, RowMetrics>;     // row name -> fields
using ReportMetrics = std::map<std::string, SectionMetrics>;  // section -> rows

ReportMetrics metrics_of(const Report& r);

struct SectionFields {
    const char* section;
    const char* primary;              // what diff sorts the section's rows by
    std::vector<const char*> fields;  // every field, the primary first
};
// The sections in the order diff prints them, with their fields.
const std::vector<SectionFields>& section_fields();
const SectionFields* find_section(const std::string& name);

}  // namespace apcgate::daemon::analysis
