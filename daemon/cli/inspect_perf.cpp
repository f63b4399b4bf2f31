#include "daemon/cli/inspect_perf.hpp"

#include <nlohmann/json.hpp>

#include "daemon/capture/perf_capture_summary.hpp"
#include "daemon/cli/inspect_output.hpp"
#include "daemon/service/exit_codes.hpp"

namespace apcgate::daemon {

namespace {

std::string hex(std::int32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", static_cast<unsigned>(v));  // NOLINT
    return buf;
}

double span_seconds(const perf_framing::PerfCaptureTally& t) {
    if (!t.first_time || !t.last_time) return 0.0;
    return static_cast<double>(*t.last_time - *t.first_time) / 1e9;
}

std::string counter_type(const PerfCaptureSummary& s, std::int32_t key) {
    for (const auto& c : s.captured.counters)
        if (c.key == key) return c.type;
    return {};
}

nlohmann::json to_json(const PerfCaptureSummary& s) {
    const auto& t = s.tally;
    nlohmann::json j = capture_json(s);
    if (t.summary) {
        j["summary"] = {{"realtime_ns", t.summary->realtime_ns},
                        {"boottime_ns", t.summary->boottime_ns},
                        {"monotonic_raw_ns", t.summary->monotonic_raw_ns},
                        {"monotonic_ns", t.summary->monotonic_ns},
                        {"attributes", attributes_json(t.summary->attributes)}};
    }
    j["data_bytes"] = s.data_bytes;
    j["frames"] = t.frames;
    j["frames_by_type"] = t.frames_by_type;
    j["perf_attrs_messages"] = t.attrs_messages;
    j["records"] = t.records;
    j["lost_records"] = t.lost_records;
    j["lost_events"] = t.lost_events;
    j["packed_record_bytes"] = t.packed_record_bytes;
    j["raw_record_bytes"] = t.raw_record_bytes;
    j["samples_by_key"] = nlohmann::json::object();
    for (const auto& [key, n] : t.samples_by_key) j["samples_by_key"][hex(key)] = n;
    j["attrs"] = nlohmann::json::array();
    for (const auto& [key, a] : t.attrs) {
        j["attrs"].push_back({{"key", key},
                              {"type", a.type},
                              {"config", a.config},
                              {"sample_period", a.sample_period},
                              {"sample_type", a.sample_type},
                              {"read_format", a.read_format},
                              {"size", a.size}});
    }
    j["counters"] = nlohmann::json::array();
    for (const auto& c : s.captured.counters) {
        nlohmann::json cj = {{"key", c.key}, {"type", c.type}, {"values", 0}};
        if (auto it = t.counter_values.find(c.key); it != t.counter_values.end())
            cj.update({{"values", it->second.values},
                       {"min", it->second.min},
                       {"max", it->second.max},
                       {"last", it->second.last}});
        j["counters"].push_back(cj);
    }
    j["threads"] = nlohmann::json::object();
    for (const auto& [tid, name] : t.threads) j["threads"][std::to_string(tid)] = name;
    j["online_cpus"] = t.online_cpus;
    j["tracepoints"] = t.tracepoint_formats;
    if (t.first_time) j["first_time"] = *t.first_time;
    if (t.last_time) j["last_time"] = *t.last_time;
    j["span_s"] = span_seconds(t);
    return j;
}

void print_text(const PerfCaptureSummary& s, std::ostream& out) {
    const auto& t = s.tally;
    print_capture_heading(s, out);
    out << "  " << t.frames << " frames, " << s.data_bytes << " bytes, span " << span_seconds(t)
        << " s\n  frames:";
    for (const auto& [type, n] : t.frames_by_type) out << " " << type << "=" << n;
    out << "\n  PERF_ATTRS messages:";
    for (const auto& [kind, n] : t.attrs_messages) out << " " << kind << "=" << n;
    out << "\n  perf records:";
    for (const auto& [kind, n] : t.records) out << " " << kind << "=" << n;
    out << "\n  lost: " << t.lost_records << " LOST records, " << t.lost_events
        << " events dropped by the kernel\n";
    out << "  ring-buffer bytes: " << t.raw_record_bytes << " raw in " << t.packed_record_bytes
        << " packed\n";
    out << "  events (" << t.attrs.size() << "):\n";
    for (const auto& [key, a] : t.attrs) {
        const auto n = t.samples_by_key.find(key);
        const std::string type = counter_type(s, key);
        out << "    key " << hex(key) << " " << (type.empty() ? "(internal)" : type)
            << ": attr type " << a.type << " config " << a.config << ", "
            << (n == t.samples_by_key.end() ? 0 : n->second) << " samples\n";
    }
    out << "  counters (" << s.captured.counters.size() << "):\n";
    for (const auto& c : s.captured.counters) {
        out << "    key " << hex(c.key) << " " << c.type << ": ";
        if (auto it = t.counter_values.find(c.key); it != t.counter_values.end()) {
            out << it->second.values << " values, min " << it->second.min << " max "
                << it->second.max << "\n";
        } else {
            out << "0 values\n";
        }
    }
    out << "  threads: " << t.threads.size() << " named; cpus online: " << t.online_cpus.size()
        << "\n";
    print_problems(s, out);
}

}  // namespace

int run_inspect_perf(const InspectOptions& options, std::ostream& out, std::ostream& err) {
    const auto summary =
        summarize_perf_capture(options.capture, {}, dump_lines_to(out, options.dump));
    return print_inspection(
        summary, options.json, options.dump, out, err, [](const auto& s) { return to_json(s); },
        [](const auto& s, std::ostream& o) { print_text(s, o); });
}

}  // namespace apcgate::daemon
