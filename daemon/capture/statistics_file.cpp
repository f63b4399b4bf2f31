#include "daemon/capture/statistics_file.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/statistics_output.hpp"

namespace apcgate::daemon {

namespace {

constexpr std::size_t kMaxParts = 1024;
constexpr std::size_t kMaxStatisticsPerPart = 1024;
constexpr std::size_t kMaxTextBytes = 4096;

// An error of the document's field `field` (a path such as "parts[2].statistics").
Error field_error(ErrorKind kind, const std::string& field, const std::string& what) {
    Error e = Error::at(kind, what);
    e.field = field;
    return e;
}

Error malformed(const std::string& field, const std::string& what) {
    return field_error(ErrorKind::Malformed, field, what);
}

bool is_severity_name(std::string_view name) {
    for (const model::Severity s :
         {model::Severity::Info, model::Severity::DataLoss, model::Severity::Error})
        if (name == model::severity_name(s)) return true;
    return false;
}

Result<std::string> text_field(const nlohmann::json& object, const char* key,
                               const std::string& where) {
    const auto it = object.find(key);
    const std::string field = where + "." + key;
    if (it == object.end() || !it->is_string()) return malformed(field, "is not a text");
    const auto& text = it->get_ref<const std::string&>();
    if (text.size() > kMaxTextBytes)
        return field_error(ErrorKind::Limit, field,
                           "is longer than " + std::to_string(kMaxTextBytes) + " bytes");
    return text;
}

Result<RecordedStatistic> parse_statistic(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) return malformed(where, "is not an object");
    RecordedStatistic s;
    auto name = text_field(j, "name", where);
    if (!name) return std::move(name).take_error();
    s.name = std::move(name).value();
    const auto value = j.find("value");
    if (value == j.end() || !value->is_number_unsigned())
        return malformed(where + ".value", "is not a count");
    s.value = value->get<std::uint64_t>();
    auto severity = text_field(j, "severity", where);
    if (!severity) return std::move(severity).take_error();
    s.severity = std::move(severity).value();
    if (!is_severity_name(s.severity))
        return malformed(where + ".severity", "is not info, data_loss or error");
    auto description = text_field(j, "description", where);
    if (!description) return std::move(description).take_error();
    s.description = std::move(description).value();
    return s;
}

Result<RecordedPart> parse_part(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) return malformed(where, "is not an object");
    RecordedPart part;
    auto who = text_field(j, "who", where);
    if (!who) return std::move(who).take_error();
    part.who = std::move(who).value();
    const auto list = j.find("statistics");
    if (list == j.end() || !list->is_array())
        return malformed(where + ".statistics", "is not a list");
    if (list->size() > kMaxStatisticsPerPart)
        return field_error(
            ErrorKind::Limit, where + ".statistics",
            "holds more than " + std::to_string(kMaxStatisticsPerPart) + " statistics");
    for (std::size_t i = 0; i < list->size(); ++i) {
        auto s = parse_statistic((*list)[i], where + ".statistics[" + std::to_string(i) + "]");
        if (!s) return std::move(s).take_error();
        part.statistics.push_back(std::move(s).value());
    }
    return part;
}

}  // namespace

std::string statistics_document(std::span<const StatisticsOf> parts) {
    nlohmann::json j;
    j["apcgate_statistics"] = kStatisticsFileVersion;
    j["parts"] = nlohmann::json::array();
    for (const StatisticsOf& p : parts)
        j["parts"].push_back({{"who", p.who}, {"statistics", statistics_json(p.values)}});
    return j.dump(2) + "\n";
}

Result<std::vector<RecordedPart>> parse_statistics_document(std::string_view text) {
    if (text.size() > kMaxStatisticsFileBytes)
        return Error::at(ErrorKind::Limit,
                         "is larger than " + std::to_string(kMaxStatisticsFileBytes) + " bytes");
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Error::at(ErrorKind::Malformed, "is not JSON");
    if (!j.is_object()) return malformed("", "is not a JSON object");
    const auto version = j.find("apcgate_statistics");
    if (version == j.end() || !version->is_number_integer())
        return malformed("apcgate_statistics", "is missing: not an apcgate statistics file");
    if (version->get<std::int64_t>() != kStatisticsFileVersion)
        return Error::at(ErrorKind::Unsupported, "is version " + version->dump() +
                                                     "; this apcgate reads version " +
                                                     std::to_string(kStatisticsFileVersion));
    const auto parts = j.find("parts");
    if (parts == j.end() || !parts->is_array()) return malformed("parts", "is not a list");
    if (parts->size() > kMaxParts)
        return field_error(ErrorKind::Limit, "parts",
                           "holds more than " + std::to_string(kMaxParts) + " parts");
    std::vector<RecordedPart> out;
    for (std::size_t i = 0; i < parts->size(); ++i) {
        auto part = parse_part((*parts)[i], "parts[" + std::to_string(i) + "]");
        if (!part) return std::move(part).take_error();
        out.push_back(std::move(part).value());
    }
    return out;
}

namespace {

// The document at PATH, whose errors do not yet name it.
Result<std::vector<RecordedPart>> read_statistics_document(const std::filesystem::path& path) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error::at(ErrorKind::Io, ec.message());
    if (size > kMaxStatisticsFileBytes)
        return Error::at(ErrorKind::Limit,
                         "is larger than " + std::to_string(kMaxStatisticsFileBytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        return Error::at(ErrorKind::Io, "cannot read");
    return parse_statistics_document(text);
}

}  // namespace

std::optional<Result<std::vector<RecordedPart>>> read_statistics_file(
    const std::filesystem::path& capture_dir) {
    const std::filesystem::path path = capture_dir / kStatisticsFile;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    auto parts = read_statistics_document(path);
    if (!parts)
        return Result<std::vector<RecordedPart>>(
            std::move(parts).take_error().in_input(path.string()));
    return parts;
}

}  // namespace apcgate::daemon
