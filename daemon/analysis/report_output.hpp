// The report's three forms (apcgate-report(1) documents their fields): aligned text tables,
// JSON with fixed field names, and CSV (one block per table, each row led by the table's name),
// plus the folded stacks flame-graph tools read. `top` limits the rows of every table (0: all).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "daemon/analysis/report.hpp"

namespace apcgate::daemon::analysis {

nlohmann::json report_json(const Report& r, std::size_t top);
void write_text(const Report& r, std::size_t top, std::ostream& out);
void write_csv(const Report& r, std::size_t top, std::ostream& out);
// "outer;inner COUNT" lines, as flamegraph.pl, inferno and speedscope read them.
void write_folded(const Report& r, std::ostream& out);

// "1.234 ms": a duration for people, three significant decimals in the largest fitting unit.
std::string format_ns(double ns);
// A CSV field: quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

}  // namespace apcgate::daemon::analysis
