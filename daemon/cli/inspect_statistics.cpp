#include "daemon/cli/inspect_statistics.hpp"

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/statistics_file.hpp"
#include "protocol/model/statistic.hpp"

namespace apcgate::daemon {

void add_recorded_statistics(nlohmann::json& j, const std::filesystem::path& capture_dir) {
    const auto recorded = read_statistics_file(capture_dir);
    j["statistics"] = nullptr;
    if (!recorded) return;
    if (!*recorded) {
        const Error& e = recorded->error();
        j["statistics_error"] = {{"message", e.to_string()}, {"kind", kind_name(e.kind)}};
        return;
    }
    j["statistics"] = nlohmann::json::array();
    for (const RecordedPart& part : **recorded) {
        nlohmann::json list = nlohmann::json::array();
        for (const RecordedStatistic& s : part.statistics)
            list.push_back({{"name", s.name},
                            {"value", s.value},
                            {"severity", s.severity},
                            {"description", s.description}});
        j["statistics"].push_back({{"who", part.who}, {"statistics", std::move(list)}});
    }
}

void print_recorded_statistics(const std::filesystem::path& capture_dir, std::ostream& out) {
    const auto recorded = read_statistics_file(capture_dir);
    if (!recorded) return;
    if (!*recorded) {
        out << "  warning: " << recorded->error().to_string() << "\n";
        return;
    }
    // Worth a line: a non-zero count that lost data or counts errors.
    const auto worth_a_line = [](const RecordedStatistic& s) {
        return s.value != 0 && s.severity != model::severity_name(model::Severity::Info);
    };
    std::size_t total = 0, worth = 0;
    for (const RecordedPart& part : **recorded) {
        for (const RecordedStatistic& s : part.statistics) {
            ++total;
            if (worth_a_line(s)) ++worth;
        }
    }
    out << "  statistics counted while the capture was made (" << kStatisticsFile << "): " << total
        << ", " << worth << " that lost data or count errors\n";
    for (const RecordedPart& part : **recorded) {
        for (const RecordedStatistic& s : part.statistics) {
            if (!worth_a_line(s)) continue;
            out << "    " << part.who << ": " << s.name << " = " << s.value << " (" << s.severity
                << "): " << s.description << "\n";
        }
    }
}

}  // namespace apcgate::daemon
