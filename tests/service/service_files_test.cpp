// The service's shipped files, checked as a linter would: the systemd unit (keys the issue asks
// for, then `systemd-analyze verify` on the generated unit), the Dockerfile (parsed: stages,
// every RUN through docker/build.sh, COPY sources that exist, EXPOSE, HEALTHCHECK). The man
// pages have their own suite (tests/man).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "service_support.hpp"
#include "tests/support/test_paths.hpp"
#include "whole_file.hpp"

namespace apcgate::service_test {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = apcgate::test_paths::source_dir();
using e2e::read_whole_file;

// Runs a command, returning (exit status, stdout+stderr).
std::pair<int, std::string> capture(const std::string& command) {
    std::string out;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (p == nullptr) return {-1, {}};
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// "Key=Value" lines of one [Section] of a unit file (continuations are not used in ours).
std::multimap<std::string, std::string> unit_section(const std::string& text,
                                                     const std::string& section) {
    std::multimap<std::string, std::string> out;
    std::istringstream in(text);
    std::string line;
    std::string current;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        if (line[0] == '[') {
            current = line;
            continue;
        }
        const auto eq = line.find('=');
        if (current == "[" + section + "]" && eq != std::string::npos)
            out.emplace(line.substr(0, eq), line.substr(eq + 1));
    }
    return out;
}

std::string one(const std::multimap<std::string, std::string>& m, const std::string& key) {
    EXPECT_EQ(m.count(key), 1U) << key;
    auto it = m.find(key);
    return it == m.end() ? std::string() : it->second;
}

TEST(SystemdUnit, HasWhatTheServiceNeedsAndTheHardening) {
    const auto unit = unit_section(read_whole_file(apcgate::test_paths::unit_file()), "Service");
    EXPECT_EQ(one(unit, "Type"), "notify");
    EXPECT_EQ(one(unit, "Restart"), "on-failure");
    EXPECT_EQ(one(unit, "StateDirectory"), "apcgate");
    // /run/apcgate holds the annotation FIFO and socket (collectors/annotate's default paths as
    // root); local users must reach them, so the directory is world-searchable.
    EXPECT_EQ(one(unit, "RuntimeDirectory"), "apcgate");
    EXPECT_EQ(one(unit, "RuntimeDirectoryMode"), "0755");
    EXPECT_TRUE(
        std::regex_match(one(unit, "ExecStart"),
                         std::regex(R"(/\S+/bin/apcgate serve --config-file /\S*default/apcgate)")))
        << one(unit, "ExecStart");
    EXPECT_EQ(one(unit, "ExecReload"), "/bin/kill -HUP $MAINPID");
    EXPECT_EQ(one(unit, "CapabilityBoundingSet"),
              "CAP_PERFMON CAP_SYS_ADMIN CAP_SYS_PTRACE CAP_SYSLOG");
    EXPECT_EQ(one(unit, "NoNewPrivileges"), "yes");
    EXPECT_EQ(one(unit, "ProtectSystem"), "strict");
    EXPECT_EQ(one(unit, "ProtectHome"), "read-only");
    EXPECT_EQ(one(unit, "PrivateTmp"), "yes");
    EXPECT_EQ(one(unit, "RestrictAddressFamilies"), "AF_INET AF_INET6 AF_UNIX AF_NETLINK");
    // These would take away what profiling needs (see the unit's comments).
    EXPECT_EQ(unit.count("ProtectKernelLogs"), 0U);
    EXPECT_EQ(unit.count("ProtectKernelTunables"), 0U);
    EXPECT_EQ(unit.count("ProtectProc"), 0U);
    const auto install = unit_section(read_whole_file(apcgate::test_paths::unit_file()), "Install");
    EXPECT_EQ(one(install, "WantedBy"), "multi-user.target");
}

TEST(SystemdUnit, SystemdAnalyzeVerifyAcceptsTheGeneratedUnit) {
    if (capture("command -v systemd-analyze").first != 0)
        GTEST_SKIP() << "systemd-analyze is not installed (CI installs systemd)";
    // verify checks that ExecStart's program exists: point it at the binary under test.
    std::string text = read_whole_file(apcgate::test_paths::unit_file());
    text = std::regex_replace(text, std::regex(R"(ExecStart=\S+)"),
                              std::string("ExecStart=") + apcgate::test_paths::apcgate_binary());
    const fs::path dir = e2e::temp_dir("unit");
    write_file(dir / "apcgate.service", text);
    // --man=no: the man page is checked on the installed package, where `man` can find it.
    const auto [rc, out] =
        capture("systemd-analyze verify --man=no " + (dir / "apcgate.service").string());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_EQ(out.find("apcgate.service:"), std::string::npos) << out;
}

// One Dockerfile instruction, continuation lines joined.
struct Instruction {
    std::string keyword;  // upper case
    std::string args;
    int line = 0;
};

std::vector<Instruction> parse_dockerfile(const std::string& text) {
    std::vector<Instruction> out;
    std::istringstream in(text);
    std::string line;
    std::string pending;
    int n = 0;
    int start = 0;
    while (std::getline(in, line)) {
        ++n;
        const auto first = line.find_first_not_of(" \t");
        if (pending.empty() && (first == std::string::npos || line[first] == '#')) continue;
        if (pending.empty()) start = n;
        if (!line.empty() && line.back() == '\\') {
            pending += line.substr(0, line.size() - 1) + " ";
            continue;
        }
        pending += line;
        std::istringstream words(pending);
        Instruction i;
        words >> i.keyword;
        std::getline(words >> std::ws, i.args);
        for (auto& c : i.keyword)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        i.line = start;
        out.push_back(i);
        pending.clear();
    }
    return out;
}

TEST(Dockerfile, ParsesIntoABuildAndASlimRuntimeStage) {
    const std::string text = read_whole_file(kSource / "docker/Dockerfile");
    ASSERT_FALSE(text.empty());
    const auto ins = parse_dockerfile(text);
    // The bases are build arguments (CI, with no registry, passes an image of its own); their
    // defaults, declared before the first FROM, are the public Debian images.
    std::map<std::string, std::string> defaults;
    std::vector<std::string> stages;
    std::vector<std::string> resolved;
    for (const auto& i : ins) {
        if (i.keyword == "ARG" && stages.empty() && i.args.find('=') != std::string::npos)
            defaults[i.args.substr(0, i.args.find('='))] = i.args.substr(i.args.find('=') + 1);
        if (i.keyword != "FROM") continue;
        stages.push_back(i.args);
        std::string from = i.args;
        for (const auto& [name, value] : defaults) {
            const std::string ref = "${" + name + "}";
            if (const auto at = from.find(ref); at != std::string::npos)
                from.replace(at, ref.size(), value);
        }
        resolved.push_back(from);
    }
    EXPECT_EQ(stages,
              (std::vector<std::string>{"${BUILD_BASE} AS build", "${RUNTIME_BASE} AS runtime"}));
    EXPECT_EQ(resolved,
              (std::vector<std::string>{"debian:12 AS build", "debian:12-slim AS runtime"}));
    static const std::set<std::string> kKnown{
        "FROM",       "RUN",        "COPY", "WORKDIR", "ENV", "EXPOSE", "VOLUME", "HEALTHCHECK",
        "STOPSIGNAL", "ENTRYPOINT", "CMD",  "SHELL",   "ARG", "LABEL",  "USER"};
    for (const auto& i : ins)
        EXPECT_EQ(kKnown.count(i.keyword), 1U) << "line " << i.line << ": " << i.keyword;
}

TEST(Dockerfile, EveryRunIsABuildShStepThatExists) {
    const std::string script = read_whole_file(kSource / "docker/build.sh");
    std::map<std::string, std::vector<std::string>> runs;  // stage -> build.sh subcommands
    std::string stage;
    for (const auto& i : parse_dockerfile(read_whole_file(kSource / "docker/Dockerfile"))) {
        if (i.keyword == "FROM") stage = i.args.substr(i.args.rfind(' ') + 1);
        if (i.keyword != "RUN") continue;
        std::smatch m;
        ASSERT_TRUE(std::regex_match(i.args, m, std::regex(R"(apcgate-build ([a-z-]+)( .*)?)")))
            << "line " << i.line << ": RUN must go through docker/build.sh: " << i.args;
        runs[stage].push_back(m[1]);
        EXPECT_NE(script.find("\n  " + m[1].str() + ")"), std::string::npos) << m[1];
    }
    EXPECT_EQ(runs["build"], (std::vector<std::string>{"build-deps", "build"}));
    EXPECT_EQ(runs["runtime"], (std::vector<std::string>{"runtime-deps"}));
}

TEST(Dockerfile, CopiesExistingFilesExposesThePortsAndChecksHealth) {
    std::map<std::string, std::string> last;
    for (const auto& i : parse_dockerfile(read_whole_file(kSource / "docker/Dockerfile"))) {
        last[i.keyword] = i.args;
        if (i.keyword == "COPY" && i.args.rfind("--from=", 0) != 0) {
            const std::string source = i.args.substr(0, i.args.find(' '));
            EXPECT_TRUE(fs::exists(kSource / source)) << source;
        }
        if (i.keyword == "COPY" && i.args.rfind("--from=", 0) == 0) {
            EXPECT_NE(i.args.find("--from=build /out/"), std::string::npos) << i.args;
        }
        EXPECT_NE(i.keyword, "ADD") << "line " << i.line << ": COPY, not ADD";
        if (i.keyword == "FROM") {
            EXPECT_EQ(i.args.find(":latest"), std::string::npos);
        }
    }
    EXPECT_NE(last["EXPOSE"].find("8080/tcp"), std::string::npos);
    EXPECT_NE(last["EXPOSE"].find("30001/udp"), std::string::npos);
    EXPECT_NE(last["EXPOSE"].find("30003/udp"), std::string::npos);
    EXPECT_NE(last["HEALTHCHECK"].find("CMD [\"/usr/local/bin/apcgate-healthcheck\"]"),
              std::string::npos)
        << last["HEALTHCHECK"];
    EXPECT_EQ(last["ENTRYPOINT"], "[\"/usr/bin/apcgate\"]");
    EXPECT_NE(last["CMD"].find("\"serve\""), std::string::npos);
    EXPECT_NE(last["SHELL"].find("pipefail"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::service_test
