#include "daemon/analysis/report_output.hpp"

#include <cmath>
#include <cstdio>

#include "daemon/analysis/text_table.hpp"
#include "daemon/capture/statistics_output.hpp"

namespace apcgate::daemon::analysis {

namespace {

std::size_t limit(std::size_t size, std::size_t top) {
    return top == 0 ? size : std::min(size, top);
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);  // NOLINT
    return buf;
}

std::string percent(double part, double whole) {
    return whole > 0 ? fixed(100.0 * part / whole, 1) + "%" : "-";
}

// The JSON form of a share: a fraction, 0 when there is no whole.
double share(double part, double whole) {
    return whole > 0 ? part / whole : 0.0;
}

std::string number(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return fixed(v, 0);
    return fixed(v, 3);
}

double span_total(const Report& r) {
    double total = 0;
    for (const auto& s : r.spans) total += static_cast<double>(s.total_ns);
    return total;
}

}  // namespace

std::string format_ns(double ns) {
    const double a = std::fabs(ns);
    if (a >= 1e9) return fixed(ns / 1e9, 3) + " s";
    if (a >= 1e6) return fixed(ns / 1e6, 3) + " ms";
    if (a >= 1e3) return fixed(ns / 1e3, 3) + " us";
    return fixed(ns, 0) + " ns";
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

namespace {

using nlohmann::json;

json threads_json(const Report& r, std::size_t top) {
    json out = json::array();
    for (std::size_t i = 0; i < limit(r.threads.size(), top); ++i) {
        const auto& t = r.threads[i];
        json by_core = json::object();
        for (const auto& [core, ns] : t.cpu_ns_by_core) by_core[std::to_string(core)] = ns;
        json wait = json::object();
        for (std::size_t w = 0; w < kWaitStateNames.size(); ++w)
            wait[kWaitStateNames[w]] = t.wait_ns[w];
        out.push_back({{"tid", t.tid},
                       {"pid", t.pid},
                       {"name", t.name},
                       {"process", t.process},
                       {"cpu_ns", t.cpu_ns},
                       {"cpu_ns_by_core", by_core},
                       {"wait_ns", wait},
                       {"samples", t.samples}});
    }
    return out;
}

json processes_json(const Report& r, std::size_t top) {
    json out = json::array();
    for (std::size_t i = 0; i < limit(r.processes.size(), top); ++i) {
        const auto& p = r.processes[i];
        out.push_back({{"pid", p.pid},
                       {"name", p.name},
                       {"cpu_ns", p.cpu_ns},
                       {"threads", p.threads},
                       {"samples", p.samples}});
    }
    return out;
}

json functions_json(const Report& r, std::size_t top) {
    json out = json::array();
    const double n = static_cast<double>(r.samples);
    for (std::size_t i = 0; i < limit(r.functions.size(), top); ++i) {
        const auto& f = r.functions[i];
        out.push_back({{"name", f.name},
                       {"image", f.image},
                       {"self_samples", f.self_samples},
                       {"total_samples", f.total_samples},
                       {"self_share", share(static_cast<double>(f.self_samples), n)},
                       {"total_share", share(static_cast<double>(f.total_samples), n)}});
    }
    return out;
}

json spans_json(const Report& r, std::size_t top) {
    json out = json::array();
    const double all_spans = span_total(r);
    for (std::size_t i = 0; i < limit(r.spans.size(), top); ++i) {
        const auto& s = r.spans[i];
        out.push_back({{"name", s.name},
                       {"count", s.count},
                       {"total_ns", s.total_ns},
                       {"share", share(static_cast<double>(s.total_ns), all_spans)},
                       {"min_ns", s.min_ns},
                       {"median_ns", s.median_ns},
                       {"p90_ns", s.p90_ns},
                       {"p99_ns", s.p99_ns},
                       {"max_ns", s.max_ns}});
    }
    return out;
}

json counters_json(const Report& r, std::size_t top) {
    json out = json::array();
    for (std::size_t i = 0; i < limit(r.counters.size(), top); ++i) {
        const auto& c = r.counters[i];
        json cj = {{"key", c.key},
                   {"name", c.name},
                   {"title", c.title},
                   {"units", c.units},
                   {"class", c.counter_class},
                   {"multiplier", c.multiplier},
                   {"samples", c.samples},
                   {"min", c.min},
                   {"max", c.max},
                   {"mean", nullptr},
                   {"total", nullptr}};
        if (c.mean) cj["mean"] = *c.mean;
        if (c.total) cj["total"] = *c.total;
        out.push_back(cj);
    }
    return out;
}

// The losses in the one shape of statistics (statistics_output.hpp), each with its detail.
json losses_json(const Losses& losses) {
    const auto values = losses.values();
    json j = statistics_json(values);
    for (std::size_t i = 0; i < values.size(); ++i) j[i]["detail"] = losses.detail(values[i]);
    return j;
}

}  // namespace

nlohmann::json report_json(const Report& r, std::size_t top) {
    json j;
    j["capture"] = r.capture;
    j["framing"] = r.framing;
    j["duration_ns"] = r.duration_ns;
    j["samples"] = r.samples;
    j["threads"] = threads_json(r, top);
    j["processes"] = processes_json(r, top);
    j["functions"] = functions_json(r, top);
    j["stacks"] = json::array();
    for (std::size_t i = 0; i < limit(r.stacks.size(), top); ++i)
        j["stacks"].push_back({{"stack", r.stacks[i].folded}, {"samples", r.stacks[i].samples}});
    j["spans"] = spans_json(r, top);
    j["instants"] = json::array();
    for (std::size_t i = 0; i < limit(r.instants.size(), top); ++i) {
        const auto& s = r.instants[i];
        j["instants"].push_back({{"name", s.name}, {"kind", s.kind}, {"count", s.count}});
    }
    j["counters"] = counters_json(r, top);
    j["losses"] = losses_json(r.losses);
    j["notes"] = r.notes;
    return j;
}

namespace {

// One section of the text report: its title, its table and how many rows --top left out.
void print_section(std::ostream& out, const char* title, const TextTable& t, std::size_t rows,
                   std::size_t top) {
    out << "\n" << title << "\n";
    t.print(out);
    if (top != 0 && rows > top) out << "  (" << rows - top << " more; see --top)\n";
}

void write_processes_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t({"PID", "NAME", "CPU", "THREADS", "SAMPLES"}, {true, false, true, true, true});
    for (std::size_t i = 0; i < limit(r.processes.size(), top); ++i) {
        const auto& p = r.processes[i];
        t.row({std::to_string(p.pid), p.name, format_ns(static_cast<double>(p.cpu_ns)),
               std::to_string(p.threads), std::to_string(p.samples)});
    }
    print_section(out, "Processes", t, r.processes.size(), top);
}

void write_threads_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t(
        {"TID", "PID", "NAME", "CPU", "WAIT OTHER", "WAIT CONTENTION", "WAIT IO", "SAMPLES"},
        {true, true, false, true, true, true, true, true});
    for (std::size_t i = 0; i < limit(r.threads.size(), top); ++i) {
        const auto& th = r.threads[i];
        t.row({std::to_string(th.tid), std::to_string(th.pid), th.name,
               format_ns(static_cast<double>(th.cpu_ns)),
               format_ns(static_cast<double>(th.wait_ns[0])),
               format_ns(static_cast<double>(th.wait_ns[1])),
               format_ns(static_cast<double>(th.wait_ns[2])), std::to_string(th.samples)});
    }
    print_section(out, "Threads", t, r.threads.size(), top);
}

void write_functions_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t({"SELF", "SELF%", "TOTAL", "TOTAL%", "FUNCTION", "IMAGE"},
                {true, true, true, true, false, false});
    const double n = static_cast<double>(r.samples);
    for (std::size_t i = 0; i < limit(r.functions.size(), top); ++i) {
        const auto& f = r.functions[i];
        t.row({std::to_string(f.self_samples), percent(static_cast<double>(f.self_samples), n),
               std::to_string(f.total_samples), percent(static_cast<double>(f.total_samples), n),
               f.name, f.image});
    }
    print_section(out, "Functions (CPU samples)", t, r.functions.size(), top);
}

void write_spans_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t({"COUNT", "TOTAL", "SHARE", "MIN", "MEDIAN", "P90", "P99", "MAX", "NAME"},
                {true, true, true, true, true, true, true, true, false});
    const double all = span_total(r);
    for (std::size_t i = 0; i < limit(r.spans.size(), top); ++i) {
        const auto& s = r.spans[i];
        auto d = [](std::int64_t v) { return format_ns(static_cast<double>(v)); };
        t.row({std::to_string(s.count), d(s.total_ns),
               percent(static_cast<double>(s.total_ns), all), d(s.min_ns), d(s.median_ns),
               d(s.p90_ns), d(s.p99_ns), d(s.max_ns), s.name});
    }
    print_section(out, "Spans", t, r.spans.size(), top);
}

void write_instants_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t({"COUNT", "KIND", "NAME"}, {true, false, false});
    for (std::size_t i = 0; i < limit(r.instants.size(), top); ++i)
        t.row({std::to_string(r.instants[i].count), r.instants[i].kind, r.instants[i].name});
    print_section(out, "Markers and instants", t, r.instants.size(), top);
}

void write_counters_text(const Report& r, std::size_t top, std::ostream& out) {
    TextTable t({"KEY", "COUNTER", "SAMPLES", "MIN", "MEAN", "MAX", "TOTAL", "UNITS"},
                {true, false, true, true, true, true, true, false});
    for (std::size_t i = 0; i < limit(r.counters.size(), top); ++i) {
        const auto& c = r.counters[i];
        const bool any = c.samples > 0;
        t.row({std::to_string(c.key), c.title.empty() ? c.name : c.name + " (" + c.title + ")",
               std::to_string(c.samples), any ? number(c.min) : "-",
               any && c.mean ? number(*c.mean) : "-", any ? number(c.max) : "-",
               c.total ? number(*c.total) : "-", c.units});
    }
    print_section(out, "Counters", t, r.counters.size(), top);
}

}  // namespace

void write_text(const Report& r, std::size_t top, std::ostream& out) {
    out << r.capture << " (" << r.framing
        << " framing): " << format_ns(static_cast<double>(r.duration_ns)) << ", " << r.samples
        << " CPU samples\n";
    if (!r.processes.empty()) write_processes_text(r, top, out);
    if (!r.threads.empty()) write_threads_text(r, top, out);
    if (!r.functions.empty()) write_functions_text(r, top, out);
    if (!r.spans.empty()) write_spans_text(r, top, out);
    if (!r.instants.empty()) write_instants_text(r, top, out);
    if (!r.counters.empty()) write_counters_text(r, top, out);
    out << "\nLosses\n";
    const auto losses = r.losses.values();
    if (losses.empty()) out << "  none reported\n";
    for (const auto& l : losses) {
        out << "  " << l.spec->name << " = " << l.value << " ("
            << model::severity_name(l.spec->severity) << "): " << l.spec->description << "\n";
        if (const std::string& detail = r.losses.detail(l); !detail.empty())
            out << "    " << detail << "\n";
    }
    if (!r.notes.empty()) {
        out << "\nNotes\n";
        for (const auto& n : r.notes) out << "  " << n << "\n";
    }
}

void write_csv(const Report& r, std::size_t top, std::ostream& out) {
    auto f = [](const std::string& s) { return csv_field(s); };
    out << "section,tid,pid,name,process,cpu_ns,wait_other_ns,wait_contention_ns,wait_io_ns,"
           "samples\n";
    for (std::size_t i = 0; i < limit(r.threads.size(), top); ++i) {
        const auto& t = r.threads[i];
        out << "threads," << t.tid << ',' << t.pid << ',' << f(t.name) << ',' << f(t.process) << ','
            << t.cpu_ns << ',' << t.wait_ns[0] << ',' << t.wait_ns[1] << ',' << t.wait_ns[2] << ','
            << t.samples << "\n";
    }
    out << "\nsection,pid,name,cpu_ns,threads,samples\n";
    for (std::size_t i = 0; i < limit(r.processes.size(), top); ++i) {
        const auto& p = r.processes[i];
        out << "processes," << p.pid << ',' << f(p.name) << ',' << p.cpu_ns << ',' << p.threads
            << ',' << p.samples << "\n";
    }
    out << "\nsection,name,image,self_samples,total_samples\n";
    for (std::size_t i = 0; i < limit(r.functions.size(), top); ++i) {
        const auto& fn = r.functions[i];
        out << "functions," << f(fn.name) << ',' << f(fn.image) << ',' << fn.self_samples << ','
            << fn.total_samples << "\n";
    }
    out << "\nsection,name,count,total_ns,min_ns,median_ns,p90_ns,p99_ns,max_ns\n";
    for (std::size_t i = 0; i < limit(r.spans.size(), top); ++i) {
        const auto& s = r.spans[i];
        out << "spans," << f(s.name) << ',' << s.count << ',' << s.total_ns << ',' << s.min_ns
            << ',' << s.median_ns << ',' << s.p90_ns << ',' << s.p99_ns << ',' << s.max_ns << "\n";
    }
    out << "\nsection,name,kind,count\n";
    for (std::size_t i = 0; i < limit(r.instants.size(), top); ++i)
        out << "instants," << f(r.instants[i].name) << ',' << r.instants[i].kind << ','
            << r.instants[i].count << "\n";
    out << "\nsection,key,name,units,class,samples,min,mean,max,total\n";
    for (std::size_t i = 0; i < limit(r.counters.size(), top); ++i) {
        const auto& c = r.counters[i];
        out << "counters," << c.key << ',' << f(c.name) << ',' << f(c.units) << ','
            << f(c.counter_class) << ',' << c.samples << ',' << number(c.min) << ','
            << (c.mean ? number(*c.mean) : "") << ',' << number(c.max) << ','
            << (c.total ? number(*c.total) : "") << "\n";
    }
    out << "\nsection,name,value,severity,description,detail\n";
    for (const auto& l : r.losses.values())
        out << "losses," << l.spec->name << ',' << l.value << ','
            << model::severity_name(l.spec->severity) << ',' << f(std::string(l.spec->description))
            << ',' << f(r.losses.detail(l)) << "\n";
}

void write_folded(const Report& r, std::ostream& out) {
    for (const auto& s : r.stacks) out << s.folded << ' ' << s.samples << "\n";
}

}  // namespace apcgate::daemon::analysis
