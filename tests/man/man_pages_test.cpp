// The man pages (man/*.in, filled in at configure time into the build tree) against the program
// they describe. Options are read from the two sides as a user sees them: `apcgate [SUB] --help`
// lists one option per line, indented by two spaces; a page documents an option as the tag of a
// .TP paragraph in its OPTIONS section. Mentions of an option in running text do not count as
// documenting it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "daemon/service/exit_codes.hpp"
#include "tests/support/test_paths.hpp"
#include "whole_file.hpp"

namespace apcgate::man_test {
namespace {

namespace fs = std::filesystem;
const fs::path kManDir = apcgate::test_paths::man_dir();
const fs::path kSource = apcgate::test_paths::source_dir();
using e2e::read_whole_file;

// Runs a shell command: (exit status, what it wrote to stdout and, unless redirected, stderr).
std::pair<int, std::string> run(const std::string& command) {
    std::string out;
    FILE* p = ::popen(command.c_str(), "r");
    if (p == nullptr) return {-1, {}};
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string help_of(const std::string& sub) {
    auto [rc, out] = run(std::string(apcgate::test_paths::apcgate_binary()) +
                         (sub.empty() ? "" : " " + sub) + " --help 2>&1");
    EXPECT_EQ(rc, 0) << sub << ": " << out;
    return out;
}

// `apcgate --version`: "apcgate X.Y.Z".
std::string version() {
    auto [rc, out] = run(std::string(apcgate::test_paths::apcgate_binary()) + " --version 2>&1");
    EXPECT_EQ(rc, 0) << out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    // "apcgate 0.1.0 (commit abc)": the pages name the program and its version, not the commit.
    if (const auto paren = out.find(" (commit "); paren != std::string::npos) out.resize(paren);
    return out;
}

// Long options of a --help text: the lines that start with an option, indented by two.
std::set<std::string> help_options(const std::string& help) {
    std::set<std::string> names;
    static const std::regex kLine(R"(^  (?:-[A-Za-z0-9],)?--([a-z][a-z0-9-]*))");
    std::istringstream in(help);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_search(l, m, kLine)) names.insert(m[1]);
    }
    return names;
}

// The subcommands `apcgate --help` lists (a line of its SUBCOMMANDS section: two spaces, a name).
std::vector<std::string> subcommands() {
    const std::string help = help_of("");
    std::vector<std::string> subs;
    std::istringstream in(help);
    bool listing = false;
    static const std::regex kEntry(R"(^  ([a-z][a-z0-9-]*)( |$))");
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("SUBCOMMANDS", 0) == 0 || l.rfind("Subcommands", 0) == 0) {
            listing = true;
            continue;
        }
        if (!listing) continue;
        std::smatch m;
        if (std::regex_search(l, m, kEntry)) {
            subs.push_back(m[1]);
        } else if (!l.empty() && l[0] != ' ') {
            listing = false;  // the footer, after the list
        }
    }
    return subs;
}

// The lines of one section (.SH NAME up to the next .SH) of a roff page.
std::vector<std::string> section(const std::string& page, const std::string& name) {
    std::vector<std::string> lines;
    std::istringstream in(page);
    bool inside = false;
    for (std::string l; std::getline(in, l);) {
        if (l.rfind(".SH ", 0) == 0) {
            std::string title = l.substr(4);
            if (!title.empty() && title.front() == '"') title = title.substr(1, title.size() - 2);
            inside = title == name;
            continue;
        }
        if (inside) lines.push_back(l);
    }
    return lines;
}

std::string unescape_hyphens(std::string s) {
    for (std::size_t at = 0; (at = s.find("\\-", at)) != std::string::npos;) s.erase(at, 1);
    return s;
}

// Long options a page documents: those named in the tag line after each .TP in OPTIONS.
std::set<std::string> man_options(const std::string& page) {
    std::set<std::string> names;
    static const std::regex kOption(R"(--([a-z][a-z0-9-]*))");
    const auto lines = section(page, "OPTIONS");
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (lines[i] != ".TP") continue;
        const std::string tag = unescape_hyphens(lines[i + 1]);
        for (std::sregex_iterator it(tag.begin(), tag.end(), kOption), end; it != end; ++it)
            names.insert((*it)[1]);
    }
    return names;
}

std::string page_of(const std::string& sub) {
    return read_whole_file(kManDir / (sub.empty() ? "apcgate.1" : "apcgate-" + sub + ".1"));
}

std::string join(const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) out += (out.empty() ? "--" : ", --") + x;
    return out;
}

TEST(ManPages, TheProgramHasTheSubcommandsThePagesDescribe) {
    const auto subs = subcommands();
    EXPECT_EQ(std::set<std::string>(subs.begin(), subs.end()),
              (std::set<std::string>{"serve", "record", "inspect", "convert", "report", "diff"}));
}

// Each subcommand's --help and its page name the same long options, and so do `apcgate --help`
// and apcgate(1): an option added, renamed or removed in the code fails here until its page
// follows.
TEST(ManPages, EachPageDocumentsExactlyTheOptionsOfItsHelp) {
    std::vector<std::string> pages{""};
    for (const auto& s : subcommands()) pages.push_back(s);
    for (const auto& sub : pages) {
        SCOPED_TRACE(sub.empty() ? "apcgate" : "apcgate " + sub);
        const std::string page = page_of(sub);
        ASSERT_FALSE(page.empty()) << "no page for " << sub;
        const auto in_help = help_options(help_of(sub));
        const auto in_page = man_options(page);
        ASSERT_FALSE(in_help.empty());
        std::set<std::string> undocumented;
        std::set<std::string> gone;
        for (const auto& o : in_help)
            if (!in_page.count(o)) undocumented.insert(o);
        for (const auto& o : in_page)
            if (!in_help.count(o)) gone.insert(o);
        EXPECT_TRUE(undocumented.empty()) << "in --help, not in the page: " << join(undocumented);
        EXPECT_TRUE(gone.empty()) << "in the page, not in --help: " << join(gone);
    }
}

TEST(ManPages, EveryPageHasItsSectionsItsVersionAndNoPlaceholderLeft) {
    for (const auto& entry : fs::directory_iterator(kSource / "man")) {
        const std::string file = entry.path().filename().string();
        if (entry.path().extension() != ".in") continue;
        const std::string name = file.substr(0, file.size() - 3);
        SCOPED_TRACE(name);
        const std::string page = read_whole_file(kManDir / name);
        ASSERT_FALSE(page.empty()) << "not configured into " << kManDir;
        EXPECT_EQ(page.find("@APCGATE"), std::string::npos);
        // The footer names the program's version ("apcgate 0.1.0"), as --version prints it.
        std::string th;
        std::istringstream lines(page);
        for (std::string l; std::getline(lines, l);)
            if (l.rfind(".TH ", 0) == 0) th = l;
        EXPECT_NE(th.find('"' + version() + '"'), std::string::npos) << th;
        std::vector<std::string> wanted{"NAME", "DESCRIPTION", "EXAMPLES", "SEE ALSO"};
        if (name.back() == '1')
            for (const char* s : {"SYNOPSIS", "OPTIONS", "EXIT STATUS"}) wanted.emplace_back(s);
        for (const auto& s : wanted) EXPECT_FALSE(section(page, s).empty()) << s;
        // apcgate(1) leads to every other page.
        if (name != "apcgate.1") {
            const std::string stem = name.substr(0, name.size() - 2);
            const auto see_also = section(page_of(""), "SEE ALSO");
            const std::string ref =
                ".BR " + unescape_hyphens(stem) + " (" + name.substr(name.size() - 1) + ")";
            bool found = false;
            for (const auto& l : see_also) found = found || unescape_hyphens(l).rfind(ref, 0) == 0;
            EXPECT_TRUE(found) << "apcgate(1) SEE ALSO lacks " << ref;
        }
    }
}

// Every exit code of daemon/service/exit_codes.hpp is explained in apcgate(1).
TEST(ManPages, TheMainPageListsEveryExitCode) {
    std::set<std::string> documented;
    static const std::regex kCode(R"(^\.BR? ([0-9]+)(?: ", " ([0-9]+))?$)");
    for (const auto& l : section(page_of(""), "EXIT STATUS")) {
        std::smatch m;
        if (!std::regex_match(l, m, kCode)) continue;
        documented.insert(m[1]);
        if (m[2].matched) documented.insert(m[2]);
    }
    using namespace daemon;  // NOLINT(google-build-using-namespace): the codes' names
    for (const int c : {int{kExitOk}, int{kExitFailure}, int{kExitUsage}, int{kExitInvalidInput},
                        int{kExitOutputExists}, int{kExitRuleFailed}, kExitSignalBase + SIGINT,
                        kExitSignalBase + SIGTERM})
        EXPECT_TRUE(documented.count(std::to_string(c))) << c;
}

// The settings keys the shipped settings file shows are the keys apcgate-serve(1) explains.
TEST(ManPages, TheServePageExplainsEverySettingsKey) {
    std::set<std::string> shipped;
    static const std::regex kKey(R"(^#?(APCGATE_[A-Z_]+)=)");
    std::istringstream file(read_whole_file(kSource / "systemd" / "apcgate.default"));
    for (std::string l; std::getline(file, l);) {
        std::smatch m;
        if (std::regex_search(l, m, kKey)) shipped.insert(m[1]);
    }
    ASSERT_FALSE(shipped.empty());
    std::set<std::string> documented;
    const auto lines = section(page_of("serve"), "SETTINGS FILE");
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        if (lines[i] == ".TP" && lines[i + 1].rfind(".B APCGATE_", 0) == 0)
            documented.insert(lines[i + 1].substr(3));
    EXPECT_EQ(documented, shipped);
}

// man(1) and groff render each page without a warning (roff mistakes show up as warnings).
TEST(ManPages, EveryPageRendersWithoutWarnings) {
    if (run("command -v man >/dev/null && command -v groff >/dev/null").first != 0)
        GTEST_SKIP() << "man-db or groff is not installed";
    for (const auto& entry : fs::directory_iterator(kSource / "man")) {
        if (entry.path().extension() != ".in") continue;
        const fs::path page = kManDir / entry.path().stem();
        SCOPED_TRACE(page.string());
        const auto [rc, warnings] =
            run("MANWIDTH=80 man --warnings -l '" + page.string() + "' 2>&1 >/dev/null");
        EXPECT_EQ(rc, 0);
        EXPECT_EQ(warnings, "");
        const auto [grc, gwarnings] = run("groff -man -ww -z '" + page.string() + "' 2>&1");
        EXPECT_EQ(grc, 0);
        EXPECT_EQ(gwarnings, "");
    }
}

}  // namespace
}  // namespace apcgate::man_test
