#include "daemon/analysis/report_diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "daemon/analysis/report_output.hpp"
#include "daemon/analysis/text_table.hpp"

namespace apcgate::daemon::analysis {

namespace {

double field(const RowMetrics& m, const char* f) {
    auto it = m.find(f);
    return it == m.end() ? 0.0 : it->second;
}

std::size_t limit(std::size_t size, std::size_t top) {
    return top == 0 ? size : std::min(size, top);
}

bool is_duration(const std::string& f) {
    return f.size() > 3 && f.ends_with("_ns");
}

std::string show(double v, const std::string& f) {
    if (is_duration(f)) return format_ns(v);
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);  // NOLINT
    } else {
        std::snprintf(buf, sizeof buf, "%.4g", v);  // NOLINT
    }
    return buf;
}

std::string signed_show(double v, const std::string& f) {
    const std::string s = show(v, f);
    return v > 0 ? "+" + s : s;
}

std::string show_relative(const DiffRow& r) {
    if (!r.in_before) return "new";
    if (!r.in_after) return "gone";
    if (!r.relative) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * *r.relative);  // NOLINT
    return buf;
}

}  // namespace

std::vector<DiffSection> diff_reports(const ReportMetrics& before, const ReportMetrics& after) {
    std::vector<DiffSection> out;
    static const SectionMetrics kNone;
    for (const auto& sf : section_fields()) {
        DiffSection section;
        section.fields = &sf;
        const auto b_it = before.find(sf.section);
        const auto a_it = after.find(sf.section);
        const SectionMetrics& b = b_it == before.end() ? kNone : b_it->second;
        const SectionMetrics& a = a_it == after.end() ? kNone : a_it->second;
        std::set<std::string> names;
        for (const auto& [n, m] : b) names.insert(n);
        for (const auto& [n, m] : a) names.insert(n);
        for (const auto& n : names) {
            DiffRow row;
            row.name = n;
            if (auto it = b.find(n); it != b.end()) row.in_before = true, row.before = it->second;
            if (auto it = a.find(n); it != a.end()) row.in_after = true, row.after = it->second;
            const double x = field(row.before, sf.primary), y = field(row.after, sf.primary);
            row.change = y - x;
            if (x != 0) row.relative = (y - x) / std::fabs(x);
            section.rows.push_back(std::move(row));
        }
        std::stable_sort(section.rows.begin(), section.rows.end(),
                         [](const DiffRow& p, const DiffRow& q) {
                             return std::fabs(p.change) > std::fabs(q.change);
                         });
        out.push_back(std::move(section));
    }
    return out;
}

void write_diff_text(const std::vector<DiffSection>& diff, const std::vector<RuleVerdict>& verdicts,
                     std::size_t top, std::ostream& out) {
    bool first = true;
    for (const auto& s : diff) {
        if (s.rows.empty()) continue;
        const std::string primary = s.fields->primary;
        out << (first ? "" : "\n") << s.fields->section << " (" << primary << ")\n";
        first = false;
        TextTable t({"A", "B", "CHANGE", "CHANGE%", "NAME"}, {true, true, true, true, false});
        for (std::size_t i = 0; i < limit(s.rows.size(), top); ++i) {
            const DiffRow& r = s.rows[i];
            t.row({r.in_before ? show(field(r.before, s.fields->primary), primary) : "-",
                   r.in_after ? show(field(r.after, s.fields->primary), primary) : "-",
                   signed_show(r.change, primary), show_relative(r), r.name});
        }
        t.print(out);
        if (top != 0 && s.rows.size() > top)
            out << "  (" << s.rows.size() - top << " more; see --top)\n";
    }
    if (first) out << "no rows in either capture\n";
    for (const auto& v : verdicts) {
        out << "\nrule '" << v.rule->text << "': ";
        if (!v.matched_any) {
            out << "matches no row in either capture\n";
        } else if (v.tripped_rows.empty()) {
            out << "passed\n";
        } else {
            out << "FAILED for";
            for (const auto& r : v.tripped_rows) out << " " << r;
            out << "\n";
        }
    }
}

nlohmann::json diff_json(const std::vector<DiffSection>& diff,
                         const std::vector<RuleVerdict>& verdicts, std::size_t top) {
    using nlohmann::json;
    json j = json::object();
    for (const auto& s : diff) {
        json rows = json::array();
        for (std::size_t i = 0; i < limit(s.rows.size(), top); ++i) {
            const DiffRow& r = s.rows[i];
            json before = json::object(), after = json::object(), change = json::object(),
                 relative = json::object();
            for (const char* f : s.fields->fields) {
                const double x = field(r.before, f), y = field(r.after, f);
                before[f] = r.in_before ? json(x) : json(nullptr);
                after[f] = r.in_after ? json(y) : json(nullptr);
                change[f] = y - x;
                relative[f] = x != 0 ? json((y - x) / std::fabs(x)) : json(nullptr);
            }
            rows.push_back({{"name", r.name},
                            {"a", before},
                            {"b", after},
                            {"change", change},
                            {"relative_change", relative}});
        }
        j[s.fields->section] = rows;
    }
    j["rules"] = json::array();
    for (const auto& v : verdicts)
        j["rules"].push_back({{"rule", v.rule->text},
                              {"matched", v.matched_any},
                              {"failed", !v.tripped_rows.empty()},
                              {"rows", v.tripped_rows}});
    return j;
}

void write_diff_csv(const std::vector<DiffSection>& diff, std::size_t top, std::ostream& out) {
    out << "section,name,field,a,b,change,relative_change\n";
    for (const auto& s : diff) {
        for (std::size_t i = 0; i < limit(s.rows.size(), top); ++i) {
            const DiffRow& r = s.rows[i];
            for (const char* f : s.fields->fields) {
                const double x = field(r.before, f), y = field(r.after, f);
                char rel[32] = "";
                if (x != 0)
                    std::snprintf(rel, sizeof rel, "%.6g", (y - x) / std::fabs(x));  // NOLINT
                out << s.fields->section << ',' << csv_field(r.name) << ',' << f << ','
                    << (r.in_before ? std::to_string(x) : "") << ','
                    << (r.in_after ? std::to_string(y) : "") << ',' << std::to_string(y - x) << ','
                    << rel << "\n";
            }
        }
    }
}

}  // namespace apcgate::daemon::analysis
