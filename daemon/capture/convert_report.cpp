#include "daemon/capture/convert_report.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

#include "daemon/capture/statistics_output.hpp"

namespace apcgate::daemon {

nlohmann::json error_json(const Error& e) {
    nlohmann::json j{{"message", e.to_string()}, {"kind", kind_name(e.kind)}};
    if (e.offset) j["offset"] = *e.offset;
    if (!e.record.empty()) j["record"] = e.record;
    if (!e.field.empty()) j["field"] = e.field;
    return j;
}

nlohmann::json report_json(const collectors::ingest::IngestReport& r) {
    nlohmann::json j;
    j["input"] = r.input();
    j["format"] = r.format();
    j["complete"] = r.complete();
    j["bytes"] = r.bytes_total;
    j["bytes_read"] = r.bytes_done;
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [kind, s] : r.kinds())
        kinds[kind] = {
            {"read", s.read}, {"mapped", s.mapped}, {"skipped", s.skipped}, {"bad", s.bad}};
    j["records"] = kinds;
    j["problem_count"] = r.problem_count();
    j["statistics"] = statistics_json(r.statistic_values());
    j["problems"] = nlohmann::json::array();
    for (const auto& p : r.problems()) j["problems"].push_back(error_json(p));
    if (r.stop_reason()) j["stopped"] = error_json(*r.stop_reason());
    j["notes"] = r.notes();
    return j;
}

std::string report_text(const collectors::ingest::IngestReport& r) {
    std::ostringstream out;
    out << r.input() << " (" << r.format()
        << "): " << (r.complete() ? "read" : "read up to a problem") << ", " << r.bytes_done
        << " of " << r.bytes_total << " bytes\n";
    for (const auto& [kind, s] : r.kinds()) {
        out << "  " << kind << ": " << s.read << " read, " << s.mapped << " mapped, " << s.skipped
            << " skipped";
        if (s.bad > 0) out << ", " << s.bad << " bad";
        out << "\n";
    }
    out << statistics_text(r.statistic_values());
    for (const auto& n : r.notes()) out << "  note: " << n << "\n";
    for (const auto& p : r.problems()) out << "  problem: " << p.to_string() << "\n";
    if (r.problem_count() > r.problems().size())
        out << "  (" << r.problem_count() - r.problems().size() << " more problems)\n";
    return out.str();
}

void log_report(const collectors::ingest::IngestReport& r) {
    std::uint64_t mapped = 0;
    for (const auto& [kind, st] : r.kinds()) mapped += st.mapped;
    spdlog::info("source {} ({}): {}, {} of {} bytes, {} records mapped, {} problems", r.input(),
                 r.format(), r.complete() ? "read" : "read up to a problem", r.bytes_done,
                 r.bytes_total, mapped, r.problem_count());
    log_statistics("source " + r.input(), r.statistic_values());
    for (const auto& n : r.notes()) spdlog::warn("source {}: {}", r.input(), n);
    const std::uint64_t others = r.problem_count() - (r.stop_reason() ? 1 : 0);
    std::uint64_t shown = 0;
    for (std::size_t i = 0; i < r.problems().size(); ++i) {
        if (shown == std::min<std::uint64_t>(others, kMaxLoggedProblems)) break;
        if (r.stop_index() == i) continue;  // logged last, as the reason reading stopped
        spdlog::warn("source {}: {}", r.input(), r.problems()[i].to_string());
        ++shown;
    }
    if (others > shown) spdlog::warn("source {}: {} more problems", r.input(), others - shown);
    if (r.stop_reason())
        spdlog::warn("source {}: reading stopped: {}", r.input(), r.stop_reason()->to_string());
}

}  // namespace apcgate::daemon
