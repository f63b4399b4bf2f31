// Hostile CTF inputs (tests/data/hostile/, issue 27) through the real binary: a trace that
// libbabeltrace2 decodes into empty events forever is stopped at the decode bound
// (collectors/ctf/decode_bound.hpp), and a trace whose stream file is cut inside a packet gives
// the events of every whole packet (collectors/ctf/stream_repair.hpp). Both exit 3, say why in
// --json and write a capture that `apcgate inspect` accepts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "babeltrace_reference.hpp"
#include "ctf_run.hpp"
#include "daemon_process.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
using e2e::run_apcgate;

const fs::path kHostile =
    fs::weakly_canonical(fs::path(apcgate::test_paths::testdata_dir()) / "hostile");
// The time guard: run_apcgate kills a convert that has not ended by then (before the bound, an
// endless decode never ended); these inputs take well under a second.
constexpr std::chrono::seconds kGuard{30};

bool binary_runs() {
    static const bool kRuns = run_apcgate({"--version"}).first == 0;
    return kRuns;
}
#define REQUIRE_BINARY() \
    if (!binary_runs()) GTEST_SKIP() << "the apcgate binary cannot be run on this host"

nlohmann::json json_in(const std::string& text) {
    const auto start = text.find('{');
    return start == std::string::npos ? nlohmann::json{}
                                      : nlohmann::json::parse(text.substr(start), nullptr, false);
}

bool valid_capture(const fs::path& apc) {
    auto [rc, out] = run_apcgate({"inspect", apc.string(), "--json"});
    EXPECT_EQ(rc, 0) << out;
    const auto json = json_in(out);
    return json.is_object() && json["valid"].get<bool>();
}

std::uint64_t be64(const std::vector<char>& b, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<std::uint8_t>(b.at(at + i));
    return v;
}

std::uint64_t be32(const std::vector<char>& b, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<std::uint8_t>(b.at(at + i));
    return v;
}

std::string read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Where the last whole packet of a stream file of `size` bytes ends, from LTTng's index of it
// (index/NAME.idx, big-endian: magic, major, minor, entry size; then per packet its offset in
// bytes and its size in bits): computed without libbabeltrace2 or apcgate.
std::uint64_t whole_packets_end(const fs::path& idx, std::uint64_t size) {
    std::ifstream in(idx, std::ios::binary);
    const std::vector<char> b((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    EXPECT_EQ(be32(b, 0), 0xC1F1DCC1U);
    const std::size_t entry = be32(b, 12);
    std::uint64_t end = 0;
    for (std::size_t at = 16; entry >= 16 && at + entry <= b.size(); at += entry) {
        const std::uint64_t packet_end = be64(b, at) + be64(b, at + 8) / 8;
        if (packet_end <= size) end = std::max(end, packet_end);
    }
    return end;
}

std::map<std::string, std::uint64_t> converted_events(const nlohmann::json& input) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& [kind, s] : input["records"].items())
        if (kind.front() != '(' && s["read"].get<std::uint64_t>() > 0)
            out[kind] = s["read"].get<std::uint64_t>();
    return out;
}

// Runs with TMPDIR set to a directory of its own: what the ingester leaves there is seen.
std::pair<int, std::string> convert_in(const fs::path& tmp, const std::vector<std::string>& args) {
    fs::create_directories(tmp);
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old != nullptr ? old : "";
    ::setenv("TMPDIR", tmp.c_str(), 1);
    auto result = run_apcgate(args, kGuard);
    if (old != nullptr) {
        ::setenv("TMPDIR", saved.c_str(), 1);
    } else {
        ::unsetenv("TMPDIR");
    }
    return result;
}

TEST(CtfHostile, EndlessEventsStopAtTheDecodeBoundWithAValidCapture) {
    REQUIRE_BINARY();
    const fs::path dir = scratch_dir("hostile-endless");
    const fs::path out = dir / "out.apc";
    const fs::path input = kHostile / "ctf_infinite_events";
    auto [rc, text] =
        run_apcgate({"convert", input.string(), "-o", out.string(), "--json"}, kGuard);
    ASSERT_NE(rc, -1) << "convert did not end within " << kGuard.count() << " s";
    EXPECT_EQ(rc, 3) << text.substr(0, 2000);
    const auto json = json_in(text);
    ASSERT_TRUE(json.is_object()) << text.substr(0, 2000);
    const auto& report = json["inputs"][0];
    EXPECT_FALSE(report["complete"].get<bool>());
    ASSERT_TRUE(report.contains("stopped")) << report.dump(2);
    const std::string why = report["stopped"]["message"].get<std::string>();
    // 84 bytes of data stream: at most 8 events per byte, 672.
    EXPECT_NE(why.find("from 84 bytes of data streams"), std::string::npos) << why;
    EXPECT_NE(why.find("bound of 8 events per byte (672 events"), std::string::npos) << why;
    EXPECT_EQ(report["stopped"]["record"], "CTF data stream");
    // The events up to the bound are kept.
    EXPECT_GT(report["records"]["ev"]["read"].get<std::uint64_t>(), 672U);
    EXPECT_TRUE(valid_capture(out));
    fs::remove_all(dir);
}

TEST(CtfHostile, StreamCutInsideAPacketKeepsEveryWholePacket) {
    REQUIRE_BINARY();
    const fs::path dir = scratch_dir("hostile-cut");
    const fs::path trace = kHostile / "ctf_trunc_at34816" / "trace";
    const fs::path cut = trace / "kernel_channel_0";
    ASSERT_EQ(fs::file_size(cut), 34816U);
    const std::uint64_t whole = whole_packets_end(trace / "index" / "kernel_channel_0.idx", 34816);
    ASSERT_EQ(whole, 32768U);  // 8 packets of 4 KiB; the 9th is cut 2 KiB in

    // The reference: babeltrace2 on a copy with the stream cut back to its whole packets.
    const fs::path trimmed = dir / "trimmed";
    fs::copy(trace, trimmed, fs::copy_options::recursive);
    fs::resize_file(trimmed / "kernel_channel_0", whole);

    const fs::path out = dir / "out.apc";
    const fs::path tmp = dir / "tmp";
    auto [rc, text] =
        convert_in(tmp, {"convert", trace.parent_path().string(), "-o", out.string(), "--json"});
    ASSERT_NE(rc, -1) << "convert did not end within " << kGuard.count() << " s";
    EXPECT_EQ(rc, 3) << text;
    const auto json = json_in(text);
    ASSERT_TRUE(json.is_object()) << text;
    const auto& report = json["inputs"][0];
    EXPECT_FALSE(report["complete"].get<bool>());
    // One problem (the probe's; the decoding worker repairs the trace again but does not say
    // so twice) that names the file, where it was cut back to and what was lost.
    int named = 0;
    for (const auto& p : report["problems"]) {
        const std::string message = p["message"].get<std::string>();
        if (message.rfind(cut.string() + ": offset 32768", 0) != 0) continue;
        ++named;
        EXPECT_EQ(p["offset"], whole) << p.dump();
        EXPECT_EQ(p["record"], "CTF packet") << p.dump();
        EXPECT_NE(message.find("last whole packet at byte 32768"), std::string::npos) << message;
        EXPECT_NE(message.find("the 2048 bytes from there to the file's end at byte 34816"),
                  std::string::npos)
            << message;
    }
    EXPECT_EQ(named, 1) << report.dump(2);
    EXPECT_EQ(report["problems"].size(), 1U) << report.dump(2);
    const auto events = converted_events(report);
    EXPECT_FALSE(events.empty()) << report.dump(2);
    if (babeltrace_available()) {
        const Reference ref = babeltrace_reference(trimmed);
        ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
        EXPECT_EQ(events, ref.events);
    }
    EXPECT_TRUE(valid_capture(out));
    // The capture names the cut stream by its own path, not by its repaired view's (which it
    // once did: a temporary path that also made each conversion's capture differ).
    const std::string data = read_bytes(out / "0000000000");
    EXPECT_NE(data.find(cut.string()), std::string::npos);
    EXPECT_EQ(data.find(tmp.string()), std::string::npos);
    EXPECT_EQ(data.find("apcgate-ctf-view"), std::string::npos);
    // The repaired view lived in a private temporary directory: nothing of it is left.
    EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
    // The input was not written to.
    EXPECT_EQ(fs::file_size(cut), 34816U);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace apcgate::ctf_test
