#include "daemon/analysis/report_metrics.hpp"

namespace apcgate::daemon::analysis {

const std::vector<SectionFields>& section_fields() {
    static const std::vector<SectionFields> kSections = {
        {"processes", "cpu_ns", {"cpu_ns", "samples", "threads"}},
        {"threads",
         "cpu_ns",
         {"cpu_ns", "samples", "wait_other_ns", "wait_contention_ns", "wait_io_ns"}},
        {"functions",
         "self_samples",
         {"self_samples", "total_samples", "self_share", "total_share"}},
        {"spans",
         "total_ns",
         {"total_ns", "count", "min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns"}},
        {"instants", "count", {"count"}},
        {"counters", "mean", {"mean", "samples", "min", "max", "total"}},
    };
    return kSections;
}

const SectionFields* find_section(const std::string& name) {
    for (const auto& s : section_fields())
        if (name == s.section) return &s;
    return nullptr;
}

namespace {

void add(RowMetrics& row, const char* field, double v) {
    row[field] += v;
}

}  // namespace

ReportMetrics metrics_of(const Report& r) {
    ReportMetrics m;
    for (const auto& p : r.processes) {
        RowMetrics& row = m["processes"][p.name];
        add(row, "cpu_ns", static_cast<double>(p.cpu_ns));
        add(row, "samples", static_cast<double>(p.samples));
        add(row, "threads", static_cast<double>(p.threads));
    }
    for (const auto& t : r.threads) {
        RowMetrics& row = m["threads"][t.process + "/" + t.name];
        add(row, "cpu_ns", static_cast<double>(t.cpu_ns));
        add(row, "samples", static_cast<double>(t.samples));
        add(row, "wait_other_ns", static_cast<double>(t.wait_ns[0]));
        add(row, "wait_contention_ns", static_cast<double>(t.wait_ns[1]));
        add(row, "wait_io_ns", static_cast<double>(t.wait_ns[2]));
    }
    const double n = static_cast<double>(r.samples);
    for (const auto& f : r.functions) {
        RowMetrics& row = m["functions"][f.name];
        add(row, "self_samples", static_cast<double>(f.self_samples));
        add(row, "total_samples", static_cast<double>(f.total_samples));
        add(row, "self_share", n > 0 ? static_cast<double>(f.self_samples) / n : 0.0);
        add(row, "total_share", n > 0 ? static_cast<double>(f.total_samples) / n : 0.0);
    }
    for (const auto& s : r.spans) {
        RowMetrics& row = m["spans"][s.name];
        row["total_ns"] = static_cast<double>(s.total_ns);
        row["count"] = static_cast<double>(s.count);
        row["min_ns"] = static_cast<double>(s.min_ns);
        row["median_ns"] = static_cast<double>(s.median_ns);
        row["p90_ns"] = static_cast<double>(s.p90_ns);
        row["p99_ns"] = static_cast<double>(s.p99_ns);
        row["max_ns"] = static_cast<double>(s.max_ns);
    }
    for (const auto& i : r.instants)
        add(m["instants"][i.kind + ":" + i.name], "count", static_cast<double>(i.count));
    for (const auto& c : r.counters) {
        RowMetrics& row = m["counters"][c.name];
        row["samples"] = static_cast<double>(c.samples);
        row["min"] = c.min;
        row["max"] = c.max;
        row["mean"] = c.mean.value_or(0.0);
        row["total"] = c.total.value_or(0.0);
    }
    return m;
}

}  // namespace apcgate::daemon::analysis
