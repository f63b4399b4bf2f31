// `apcgate inspect --dump` of a Perf-type capture: one line per frame, per PERF_ATTRS message
// and per PERF_DATA record, in file order, for gatord 9.7.2's own capture.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/cli/cli.hpp"
#include "daemon/service/exit_codes.hpp"
#include "tests/perf_framing/gatord_capture.hpp"

namespace apcgate {
namespace {

struct Dump {
    int rc = 0;
    std::vector<std::string> lines;
    std::string err;
};

Dump dump(const std::filesystem::path& dir) {
    daemon::InspectOptions o;
    o.capture = dir;
    o.dump = true;
    std::ostringstream out, err;
    Dump d;
    d.rc = daemon::run_inspect(o, out, err);
    d.err = err.str();
    std::istringstream in(out.str());
    for (std::string l; std::getline(in, l);) d.lines.push_back(l);
    return d;
}

// The word after the offset (and the indent of messages and records): "frame", "PEA", "SAMPLE".
std::string kind(const std::string& line) {
    std::istringstream in(line);
    std::string offset, word, type;
    in >> offset >> word;
    if (word == "frame") in >> type;
    return word == "frame" ? "frame " + type : word;
}

std::string value(const std::string& line, const std::string& key) {
    const auto at = line.find(" " + key + "=");
    if (at == std::string::npos) return {};
    const auto start = at + key.size() + 2;
    return line.substr(start, line.find(' ', start) - start);
}

TEST(PerfDump, GatordsCaptureLineByLine) {
    const auto& dir = test::gatord_capture_dir();
    ASSERT_FALSE(dir.empty()) << "could not unpack the capture with xz";
    const Dump d = dump(dir);
    ASSERT_EQ(d.rc, daemon::kExitOk) << d.err;
    std::map<std::string, std::uint64_t> kinds;
    for (const auto& l : d.lines) ++kinds[kind(l)];
    // Its README's counts: 215 frames, their PERF_ATTRS messages, the records inside PERF_DATA.
    EXPECT_EQ(kinds["frame Summary"], 1u);
    EXPECT_EQ(kinds["frame PerfAttrs"], 183u);
    EXPECT_EQ(kinds["frame PerfData"], 8u);
    EXPECT_EQ(kinds["frame BlockCounter"], 22u);
    EXPECT_EQ(kinds["frame External"], 1u);
    EXPECT_EQ(kinds["PEA"], 10u);
    EXPECT_EQ(kinds["KEYS"], 3u);
    EXPECT_EQ(kinds["COMM"], 193u + 8u);  // messages and records
    EXPECT_EQ(kinds["MAPS"], 72u);
    EXPECT_EQ(kinds["KERNEL_BUILD_ID"], 1u);
    EXPECT_EQ(kinds["SAMPLE"], 26112u);
    EXPECT_EQ(kinds["FORK"], 166u);
    EXPECT_EQ(kinds["EXIT"], 177u);
    EXPECT_EQ(kinds["MMAP2"], 74u);
    // The first frame follows its 4-byte length prefix; offsets only grow.
    ASSERT_FALSE(d.lines.empty());
    EXPECT_EQ(d.lines.front().substr(0, 10), "0x00000004");
    unsigned long long last = 0;
    for (const auto& l : d.lines) {
        const unsigned long long at = std::stoull(l.substr(0, 10), nullptr, 16);
        EXPECT_GE(at, last) << l;
        last = at;
    }
    // A record line names its type, cpu, time and key; the samples of the sched_switch leader
    // carry their task.
    bool seen_switch = false;
    for (const auto& l : d.lines) {
        if (kind(l) != "SAMPLE") continue;
        EXPECT_FALSE(value(l, "cpu").empty()) << l;
        EXPECT_FALSE(value(l, "time").empty()) << l;
        EXPECT_FALSE(value(l, "key").empty()) << l;
        if (value(l, "key") == "0x7fffffff") {
            seen_switch = true;
            EXPECT_FALSE(value(l, "tid").empty()) << l;
        }
    }
    EXPECT_TRUE(seen_switch);
    // The kernel build id (20 bytes) in hex.
    for (const auto& l : d.lines) {
        if (kind(l) == "KERNEL_BUILD_ID") {
            EXPECT_EQ(value(l, "id").size(), 40u) << l;
        }
    }
}

}  // namespace
}  // namespace apcgate
