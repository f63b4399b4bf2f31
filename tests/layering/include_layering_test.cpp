// The include layering the architecture promises (docs/architecture.md), checked on every source
// file under protocol/, xml/, collectors/ and daemon/. Each file belongs to one room; a quoted
// #include may name only a file of a room that room stands on. Angle-bracket includes are other
// projects' headers and are not ours to check.
//
//   protocol/wire                           nothing of ours
//   protocol/model                          wire
//   protocol/gator                          wire
//   protocol/apc                            wire, model
//   protocol/perf_framing                   wire, model, apc
//   xml                                     wire, model
//   collectors base (source.hpp, ingest/, pmu/)   wire, model, the base
//   collectors/NAME                         wire, model, the base, NAME itself
//   daemon/service (settings, logging, systemd, discovery)   everything below daemon
//   daemon/capture                          that, and service
//   daemon/server, daemon/analysis          that, and capture
//   daemon/cli (main and the subcommands)   every room
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_paths.hpp"

namespace apcgate {
namespace {

namespace fs = std::filesystem;

// The room of a path relative to the source root ("" when it is in none of the checked ones).
std::string room_of(const std::string& path) {
    const auto first = path.find('/');
    if (first == std::string::npos) return "";
    std::string top = path.substr(0, first);
    if (top == "xml") return top;
    if (top != "protocol" && top != "collectors" && top != "daemon") return "";
    const auto second = path.find('/', first + 1);
    const std::string sub = path.substr(
        first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    if (top == "daemon") return second == std::string::npos ? "daemon" : "daemon/" + sub;
    if (top == "collectors" && (second == std::string::npos || sub == "ingest" || sub == "pmu"))
        return "collectors/base";
    return top + "/" + sub;
}

// Whether a file in room `from` may include one in room `to`.
bool may_include(const std::string& from, const std::string& to) {
    if (from == to || from == "daemon/cli") return true;
    // The daemon's rooms stand on everything below the daemon, and on each other in this order.
    const bool below_daemon = to.rfind("daemon", 0) != 0;
    static const std::map<std::string, std::set<std::string>> kDaemonRooms = {
        {"daemon/service", {}},
        {"daemon/capture", {"daemon/service"}},
        {"daemon/server", {"daemon/service", "daemon/capture"}},
        {"daemon/analysis", {"daemon/service", "daemon/capture"}},
    };
    if (const auto it = kDaemonRooms.find(from); it != kDaemonRooms.end())
        return below_daemon || it->second.count(to) != 0;
    static const std::map<std::string, std::set<std::string>> kBelow = {
        {"protocol/wire", {}},
        {"protocol/model", {"protocol/wire"}},
        {"protocol/gator", {"protocol/wire"}},
        {"protocol/apc", {"protocol/wire", "protocol/model"}},
        {"protocol/perf_framing", {"protocol/wire", "protocol/model", "protocol/apc"}},
        {"xml", {"protocol/wire", "protocol/model"}},
        {"collectors/base", {"protocol/wire", "protocol/model"}},
    };
    if (const auto it = kBelow.find(from); it != kBelow.end()) return it->second.count(to) != 0;
    if (from.rfind("collectors/", 0) == 0)  // one collector
        return to == "protocol/wire" || to == "protocol/model" || to == "collectors/base";
    return false;  // a room this test does not know: name it above
}

struct Violation {
    std::string file;
    int line = 0;
    std::string included;
};

std::vector<Violation> upward_includes(const fs::path& root) {
    static const std::regex kInclude(R"(^\s*#\s*include\s*"([^"]+)\")");
    std::vector<Violation> out;
    for (const char* top : {"protocol", "xml", "collectors", "daemon"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
                continue;
            const std::string file = fs::relative(entry.path(), root).generic_string();
            const std::string from = room_of(file);
            std::ifstream in(entry.path());
            int number = 0;
            for (std::string line; std::getline(in, line);) {
                ++number;
                std::smatch m;
                if (!std::regex_search(line, m, kInclude)) continue;
                const std::string to = room_of(m[1]);
                // A name outside every room is a sibling include ("x.hpp"): it must then be a
                // file beside this one, which stays in the room.
                if (to.empty() && fs::exists(entry.path().parent_path() / m[1].str())) continue;
                if (to.empty() || !may_include(from, to)) out.push_back({file, number, m[1]});
            }
        }
    }
    return out;
}

TEST(Layering, TheRuleKnowsUpFromDown) {
    EXPECT_TRUE(may_include(room_of("protocol/model/event.hpp"), room_of("protocol/wire/x.hpp")));
    EXPECT_FALSE(may_include(room_of("protocol/wire/x.hpp"), room_of("protocol/model/e.hpp")));
    EXPECT_FALSE(may_include(room_of("protocol/gator/c.hpp"), room_of("protocol/model/e.hpp")));
    EXPECT_FALSE(may_include(room_of("xml/a.cpp"), room_of("protocol/apc/encoder.hpp")));
    EXPECT_FALSE(may_include(room_of("protocol/apc/e.cpp"), room_of("xml/documents.hpp")));
    EXPECT_TRUE(may_include(room_of("collectors/xray/r.cpp"), room_of("collectors/ingest/s.hpp")));
    EXPECT_TRUE(may_include(room_of("collectors/perf/r.cpp"), room_of("collectors/source.hpp")));
    EXPECT_FALSE(may_include(room_of("collectors/perf/r.cpp"), room_of("collectors/xray/x.hpp")));
    EXPECT_FALSE(may_include(room_of("collectors/fxt/r.cpp"), room_of("protocol/apc/e.hpp")));
    EXPECT_FALSE(may_include(room_of("collectors/ingest/s.hpp"), room_of("collectors/ctf/c.hpp")));
    EXPECT_FALSE(may_include(room_of("collectors/ctf/c.cpp"), room_of("daemon/cli/cli.hpp")));
    EXPECT_TRUE(may_include(room_of("daemon/cli/c.cpp"), room_of("collectors/ctf/c.hpp")));
    EXPECT_TRUE(may_include(room_of("daemon/cli/c.cpp"), room_of("daemon/server/s.hpp")));
    EXPECT_TRUE(may_include(room_of("daemon/server/s.cpp"), room_of("daemon/capture/e.hpp")));
    EXPECT_TRUE(may_include(room_of("daemon/capture/e.cpp"), room_of("protocol/apc/e.hpp")));
    EXPECT_FALSE(may_include(room_of("daemon/capture/e.cpp"), room_of("daemon/server/s.hpp")));
    EXPECT_FALSE(may_include(room_of("daemon/service/d.cpp"), room_of("daemon/capture/e.hpp")));
    EXPECT_FALSE(may_include(room_of("daemon/analysis/a.cpp"), room_of("daemon/cli/cli.hpp")));
    EXPECT_FALSE(may_include(room_of("daemon/x.cpp"), room_of("protocol/wire/x.hpp")));
    EXPECT_FALSE(may_include(room_of("protocol/newroom/a.hpp"), room_of("protocol/wire/x.hpp")));
}

TEST(Layering, TheScanFindsAnUpwardIncludeInATree) {
    const fs::path root =
        fs::temp_directory_path() / ("apcgate-layering-" + std::to_string(::getpid()));
    for (const char* d : {"protocol/wire", "protocol/model", "xml", "collectors/fxt", "daemon"})
        fs::create_directories(root / d);
    std::ofstream(root / "protocol/wire/bytes.hpp") << "#include \"protocol/model/event.hpp\"\n";
    std::ofstream(root / "protocol/model/event.hpp") << "#include \"protocol/wire/bytes.hpp\"\n";
    std::ofstream(root / "collectors/fxt/reader.cpp")
        << "#include <vector>\n#include \"collectors/xray/log.hpp\"\n  #  include "
           "\"daemon/cli/cli.hpp\"\n";
    const auto found = upward_includes(root);
    fs::remove_all(root);
    ASSERT_EQ(found.size(), 3U);
    std::set<std::string> where;
    for (const auto& v : found) where.insert(v.file + ":" + std::to_string(v.line));
    EXPECT_EQ(where,
              (std::set<std::string>{"protocol/wire/bytes.hpp:1", "collectors/fxt/reader.cpp:2",
                                     "collectors/fxt/reader.cpp:3"}));
}

TEST(Layering, NoIncludeInTheTreeRunsUpward) {
    const auto found = upward_includes(apcgate::test_paths::source_dir());
    for (const auto& v : found)
        ADD_FAILURE() << v.file << ":" << v.line << ": includes \"" << v.included << "\" ("
                      << room_of(v.file) << " may not include "
                      << (room_of(v.included).empty() ? "a file outside the rooms"
                                                      : room_of(v.included))
                      << ")";
    EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace apcgate
