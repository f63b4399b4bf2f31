// `apcgate inspect DIR.apc [--json] [--dump]`: validates a capture and prints what it holds.
// Exit 0 when it is valid (a final frame cut short by a killed recorder is reported but
// accepted: everything before it is intact), 3 when its data breaks the format or the frame
// rules (with the file offset), 1 when it cannot be read at all.
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "daemon/capture/capture_summary.hpp"
#include "daemon/capture/perf_capture_summary.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/inspect_output.hpp"
#include "daemon/cli/inspect_perf.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"
#include "protocol/apc/capture_stream.hpp"

namespace apcgate::daemon {

namespace {

double span_seconds(const CaptureSummary& s) {
    if (!s.first_ts || !s.last_ts) return 0.0;
    return static_cast<double>(*s.last_ts - *s.first_ts) / 1e9;
}

nlohmann::json to_json(const CaptureSummary& s) {
    nlohmann::json j = capture_json(s);
    j["target"]["supports_live"] = s.captured.info.target.supports_live;
    if (s.captured.info.created) j["created"] = *s.captured.info.created;
    if (s.summary) {
        j["summary"] = {{"wallclock_ns", s.summary->wallclock_ns},
                        {"uptime_ns", s.summary->uptime_ns},
                        {"monotonic_delta_ns", s.summary->monotonic_delta_ns},
                        {"attributes", attributes_json(s.summary->attributes)}};
    }
    j["data_bytes"] = s.data_bytes;
    j["frames"] = s.frames;
    j["frames_by_type"] = s.frames_by_type;
    j["messages"] = s.messages_by_kind;
    j["counters"] = nlohmann::json::array();
    for (const auto& c : s.counters) {
        j["counters"].push_back({{"key", c.key},
                                 {"type", c.type},
                                 {"title", c.title},
                                 {"frame", c.frame},
                                 {"values", c.values},
                                 {"min", c.min},
                                 {"max", c.max},
                                 {"last", c.last}});
    }
    j["threads"] = nlohmann::json::object();
    for (const auto& [tid, name] : s.threads) j["threads"][std::to_string(tid)] = name;
    j["cores"] = nlohmann::json::object();
    for (const auto& [core, name] : s.cores) j["cores"][std::to_string(core)] = name;
    if (s.first_ts) j["first_ts"] = *s.first_ts;
    if (s.last_ts) j["last_ts"] = *s.last_ts;
    j["span_s"] = span_seconds(s);
    return j;
}

void print_text(const CaptureSummary& s, std::ostream& out) {
    print_capture_heading(s, out);
    out << "  " << s.frames << " frames, " << s.data_bytes << " bytes, span " << span_seconds(s)
        << " s\n  frames:";
    for (const auto& [type, n] : s.frames_by_type) out << " " << type << "=" << n;
    out << "\n  messages:";
    for (const auto& [kind, n] : s.messages_by_kind) out << " " << kind << "=" << n;
    out << "\n  counters (" << s.counters.size() << "):\n";
    for (const auto& c : s.counters) {
        out << "    key " << c.key << " " << c.type;
        if (!c.title.empty()) out << " (" << c.title << ")";
        out << ": " << c.values << " values";
        if (c.values > 0) out << " in " << c.frame << " frames, min " << c.min << " max " << c.max;
        out << "\n";
    }
    out << "  threads: " << s.threads.size() << " named\n";
    for (const auto& [core, name] : s.cores) out << "  core " << core << ": " << name << "\n";
    print_problems(s, out);
}

}  // namespace

int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
    // A Perf-type capture (gatord 9.x framing) has its own frames and rules.
    if (is_perf_capture(options.capture)) return run_inspect_perf(options, out, err);
    const auto summary = summarize_capture(options.capture, dump_lines_to(out, options.dump));
    return print_inspection(
        summary, options.json, options.dump, out, err, [](const auto& s) { return to_json(s); },
        [](const auto& s, std::ostream& o) { print_text(s, o); });
}

Subcommand add_inspect_command(CLI::App& parent) {
    auto options = std::make_shared<InspectOptions>();
    auto* inspect_cmd =
        parent.add_subcommand("inspect", "Validate and summarise a capture (.apc directory)");
    inspect_cmd->add_option("capture", options->capture, "The .apc directory")->required();
    inspect_cmd->add_flag("--json", options->json, "Print the summary as JSON");
    inspect_cmd->add_flag("--dump", options->dump, "Print one line per message");

    return {inspect_cmd, [options] { return run_inspect(*options, std::cout, std::cerr); }};
}

}  // namespace apcgate::daemon
