// What `apcgate inspect` reports alike for the captures of both framings (inspect.cpp for the
// v6.8 one, inspect_perf.cpp for the Perf one): where the capture is, its type and target, the
// Summary frame's attributes, what breaks it, and the exit code that follows. `Summary` is
// CaptureSummary or PerfCaptureSummary: both have path, captured, end, error, violations and
// valid().
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "daemon/cli/inspect_statistics.hpp"
#include "daemon/service/exit_codes.hpp"
#include "protocol/apc/capture_stream.hpp"

namespace apcgate::daemon {

// The capture's identity, target and problems: "path", "valid", "end", "type", "protocol",
// "target", "error" (when there is one) and "violations".
template <class Summary>
nlohmann::json capture_json(const Summary& s) {
    nlohmann::json j;
    j["path"] = s.path.string();
    j["valid"] = s.valid();
    j["end"] = apc::to_string(s.end);
    j["type"] = s.captured.type;
    j["protocol"] = s.captured.info.protocol;
    const auto& t = s.captured.info.target;
    j["target"] = {{"name", t.name},
                   {"cores", t.cores},
                   {"cpuid", t.cpuid},
                   {"sample_rate", t.sample_rate_hz}};
    if (s.error)
        j["error"] = {{"message", s.error->to_string()}, {"offset", s.error->offset.value_or(0)}};
    j["violations"] = nlohmann::json::array();
    for (const auto& v : s.violations)
        j["violations"].push_back({{"offset", v.offset}, {"text", v.text}});
    return j;
}

// A Summary frame's attributes as one JSON object (a repeated key keeps its last value).
inline nlohmann::json attributes_json(
    const std::vector<std::pair<std::string, std::string>>& attributes) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : attributes) j[k] = v;
    return j;
}

// The first two lines of the text report: the capture, whether it is valid, and its target.
template <class Summary>
void print_capture_heading(const Summary& s, std::ostream& out) {
    const auto& t = s.captured.info.target;
    out << s.path.string() << ": " << (s.valid() ? "valid" : "INVALID") << " " << s.captured.type
        << " capture, protocol " << s.captured.info.protocol << "\n";
    out << "  target " << t.name << ", " << t.cores << " cores, sample rate " << t.sample_rate_hz
        << " Hz\n";
}

// The last lines of the text report: what breaks the capture (a final frame cut short is only
// a warning).
template <class Summary>
void print_problems(const Summary& s, std::ostream& out) {
    if (s.error) {
        out << (s.end == apc::StreamEnd::Truncated ? "  warning: " : "  error: ")
            << s.error->to_string() << "\n";
    }
    for (const auto& v : s.violations)
        out << "  rule violated at offset " << v.offset << ": " << v.text << "\n";
}

// kExitOk for a valid capture; otherwise says on `err` what breaks it and gives
// kExitInvalidInput.
template <class Summary>
int exit_code_for(const Summary& s, std::ostream& err) {
    if (s.valid()) return kExitOk;
    if (s.error) err << "apcgate inspect: " << s.error->to_string() << "\n";
    for (const auto& v : s.violations)
        err << "apcgate inspect: rule violated at offset " << v.offset << ": " << v.text << "\n";
    return kExitInvalidInput;
}

// The lines --dump prints as the capture is read (none without it).
inline std::function<void(const std::string&)> dump_lines_to(std::ostream& out, bool dump) {
    if (!dump) return {};
    return [&out](const std::string& lines) { out << lines; };
}

// What both framings' inspect do with their summary: say why it could not be made, or print its
// JSON or its text (nothing more with --dump: its lines went out as they were read), either
// followed by the statistics apcgate counted while it made the capture, and return the exit
// code it implies.
template <class Summary, class ToJson, class PrintText>
int print_inspection(const Result<Summary>& summary, bool json, bool dump, std::ostream& out,
                     std::ostream& err, ToJson to_json, PrintText print_text) {
    if (!summary) {
        err << "apcgate inspect: " << summary.error().to_string() << "\n";
        return kExitFailure;
    }
    if (json) {
        nlohmann::json j = to_json(*summary);
        add_recorded_statistics(j, summary->path);
        out << j.dump(2) << "\n";
    } else if (!dump) {
        print_text(*summary, out);
        print_recorded_statistics(summary->path, out);
    }
    return exit_code_for(*summary, err);
}

}  // namespace apcgate::daemon
