#include "collectors/xray/binary_for_log.hpp"

#include <cctype>
#include <string_view>

namespace apcgate::collectors::xray {

namespace {

// The log's name without the runtime's ".XXXXXX" (mkstemp's six characters).
std::string without_random_suffix(const std::string& name) {
    const auto dot = name.rfind('.');
    if (dot == std::string::npos || name.size() - dot != 7) return name;
    for (std::size_t i = dot + 1; i < name.size(); ++i)
        if (std::isalnum(static_cast<unsigned char>(name[i])) == 0) return name;
    return name.substr(0, dot);
}

// `stem` ends with `program` where a program name can start: at the start, or after a
// character that is not part of a name (the base's '.', '-', '_' ... are; letters and digits
// would make it another, longer name).
bool ends_with_program(const std::string& stem, const std::string& program) {
    if (program.empty() || stem.size() < program.size()) return false;
    if (stem.compare(stem.size() - program.size(), program.size(), program) != 0) return false;
    if (stem.size() == program.size()) return true;
    return std::isalnum(static_cast<unsigned char>(stem[stem.size() - program.size() - 1])) == 0;
}

// What a log converted without any --binary looks like, and how to name its calls: the program
// is the end of the log's name, all of what follows the runtime's default base "xray-log.".
std::string without_binary(const std::string& stem) {
    constexpr std::string_view kDefaultBase = "xray-log.";
    const std::string program =
        stem.size() > kDefaultBase.size() && stem.rfind(kDefaultBase, 0) == 0
            ? stem.substr(kDefaultBase.size())
            : std::string();
    return "no --binary: calls are named fn#ID (a log holds function ids only); " +
           (program.empty()
                ? "--binary with the executable that wrote it names them (the runtime names a "
                  "log <base><program>.XXXXXX; this one's is " +
                      stem + ")"
                : "--binary PATH/" + program + ", the executable that wrote it, names them");
}

}  // namespace

BinaryChoice binary_for_log(const std::filesystem::path& log,
                            const std::vector<std::filesystem::path>& binaries) {
    if (binaries.size() == 1) return {binaries.front(), {}};
    const std::string stem = without_random_suffix(log.filename().string());
    if (binaries.empty()) return {std::nullopt, without_binary(stem)};
    std::optional<std::filesystem::path> best;
    for (const auto& b : binaries) {
        const std::string program = b.filename().string();
        if (ends_with_program(stem, program) &&
            (!best || program.size() > best->filename().string().size()))
            best = b;
    }
    if (best) return {best, {}};
    std::string names;
    for (const auto& b : binaries) names += (names.empty() ? "" : ", ") + b.filename().string();
    return {std::nullopt, "no --binary is the program this log's name gives (" + stem +
                              "; the runtime names a log <base><program>.XXXXXX; given: " + names +
                              "): its calls are named fn#ID"};
}

}  // namespace apcgate::collectors::xray
