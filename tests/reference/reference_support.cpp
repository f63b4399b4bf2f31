#include "reference_support.hpp"

#include <algorithm>
#include <system_error>

#include "daemon_process.hpp"

namespace apcgate::reference_test {

namespace fs = std::filesystem;

std::vector<std::string> list_inputs(const std::string& dir, const std::string& suffix,
                                     bool recursive, bool directories) {
    std::vector<std::string> found;
    const auto take = [&](const fs::directory_entry& e) {
        std::error_code ec;
        const std::string name = e.path().filename().string();
        if (name.size() < suffix.size() ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            return;
        if (directories ? e.is_directory(ec) : e.is_regular_file(ec))
            found.push_back(fs::relative(e.path(), kTestdata, ec).string());
    };
    std::error_code ec;
    if (recursive) {
        for (fs::recursive_directory_iterator it(kTestdata / dir, ec), end; !ec && it != end;
             it.increment(ec))
            take(*it);
    } else {
        for (fs::directory_iterator it(kTestdata / dir, ec), end; !ec && it != end;
             it.increment(ec))
            take(*it);
    }
    std::sort(found.begin(), found.end());
    return found;
}

std::string case_name(const testing::TestParamInfo<std::string>& info) {
    std::string n = info.param;
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

Conversion convert(const fs::path& input, const std::vector<std::string>& extra) {
    Conversion c;
    const fs::path out = e2e::temp_dir("reference") / "out.apc";
    std::vector<std::string> args{"convert", input.string(), "-o", out.string(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto [rc, output] = e2e::run_apcgate(args);
    c.exit_code = rc;
    c.output = output;
    const auto start = output.find('{');
    const auto json = nlohmann::json::parse(
        start == std::string::npos ? std::string() : output.substr(start), nullptr, false);
    if (json.is_discarded() || !json.contains("inputs") || json["inputs"].empty()) {
        ADD_FAILURE() << "no --json report from `apcgate convert " << input.string()
                      << "`: " << output;
        return c;
    }
    c.input = json["inputs"][0];
    for (const auto& [kind, s] : c.input["records"].items())
        c.kinds[kind] = {s.value("read", std::uint64_t{0}), s.value("mapped", std::uint64_t{0}),
                         s.value("skipped", std::uint64_t{0}), s.value("bad", std::uint64_t{0})};
    std::error_code ec;
    fs::remove_all(out.parent_path(), ec);
    return c;
}

std::map<std::string, std::uint64_t> read_counts(const Kinds& kinds,
                                                 const std::vector<std::string>& leave_out) {
    std::map<std::string, std::uint64_t> counts;
    for (const auto& [kind, s] : kinds)
        if (s.read > 0 && std::find(leave_out.begin(), leave_out.end(), kind) == leave_out.end())
            counts[kind] = s.read;
    return counts;
}

void expect_every_record_accounted(const Kinds& kinds, const Reasons& structure,
                                   const Reasons& skip_reasons) {
    for (const auto& [kind, s] : kinds) {
        // A kind read zero times is a reason kind: its records are counted in the kind read.
        if (s.read == 0 || structure.count(kind) == 1) continue;
        EXPECT_EQ(s.read, s.mapped + s.skipped + s.bad)
            << "'" << kind << "': " << s.read << " read, " << s.mapped << " mapped, " << s.skipped
            << " skipped, " << s.bad << " bad: some records were neither shown nor skipped";
        if (s.skipped > 0) {
            EXPECT_EQ(skip_reasons.count(kind), 1U)
                << "'" << kind << "': " << s.skipped
                << " records skipped with no reason declared for the kind";
        }
    }
}

}  // namespace apcgate::reference_test
