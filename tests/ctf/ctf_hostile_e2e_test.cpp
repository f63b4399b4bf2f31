// Hostile CTF inputs (tests/data/hostile/, issue 27) through the real binary: a trace that
// libbabeltrace2 decodes into empty events forever is stopped at the decode bound
// (collectors/ctf/decode_bound.hpp), exits 3, says why in --json and writes a capture that
// `apcgate inspect` accepts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ctf_run.hpp"
#include "daemon_process.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
using e2e::run_apcgate;

const fs::path kHostile = fs::weakly_canonical(fs::path(APCGATE_TESTDATA_DIR) / "hostile");
// The time guard: run_apcgate kills a convert that has not ended by then (before the bound, an
// endless decode never ended); these inputs take well under a second.
constexpr std::chrono::seconds kGuard{30};

bool binary_runs() {
    static const bool runs = run_apcgate({"--version"}).first == 0;
    return runs;
}
#define REQUIRE_BINARY() \
    if (!binary_runs()) GTEST_SKIP() << "the apcgate binary cannot be run on this host"

nlohmann::json json_in(const std::string& text) {
    const auto start = text.find('{');
    return start == std::string::npos
               ? nlohmann::json{}
               : nlohmann::json::parse(text.substr(start), nullptr, false);
}

bool valid_capture(const fs::path& apc) {
    auto [rc, out] = run_apcgate({"inspect", apc.string(), "--json"});
    EXPECT_EQ(rc, 0) << out;
    const auto json = json_in(out);
    return json.is_object() && json["valid"].get<bool>();
}

TEST(CtfHostile, EndlessEventsStopAtTheDecodeBoundWithAValidCapture) {
    REQUIRE_BINARY();
    const fs::path dir = scratch_dir("hostile-endless");
    const fs::path out = dir / "out.apc";
    const fs::path input = kHostile / "ctf_infinite_events";
    auto [rc, text] = run_apcgate({"convert", input.string(), "-o", out.string(), "--json"}, kGuard);
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

}  // namespace
}  // namespace apcgate::ctf_test
