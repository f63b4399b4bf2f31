// `apcgate record` then `apcgate inspect`, as a user runs them: duration, SIGINT, SIGKILL
// (readable up to the last flush), a command to follow, refusing to overwrite, bad inputs.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "daemon_process.hpp"

namespace apcgate::e2e {
namespace {

namespace fs = std::filesystem;

nlohmann::json inspect_json(const fs::path& capture, int expected_rc = 0) {
    auto [rc, out] = run_apcgate({"inspect", "--json", capture.string()});
    EXPECT_EQ(rc, expected_rc) << out;
    const auto brace = out.find('{');
    if (brace == std::string::npos) return {};
    return nlohmann::json::parse(out.substr(brace, out.rfind('}') - brace + 1), nullptr, false);
}

std::uint64_t counter_values(const nlohmann::json& j) {
    std::uint64_t n = 0;
    for (const auto& c : j["counters"]) n += c["values"].get<std::uint64_t>();
    return n;
}

TEST(Record, DurationThenInspect) {
    const fs::path out = temp_dir("rec") / "run.apc";
    auto [rc, log] = run_apcgate({"record", "-o", out.string(), "-d", "1", "--sample-rate", "low"});
    ASSERT_EQ(rc, 0) << log;
    for (const char* f : {"captured.xml", "session.xml", "events.xml", "0000000000"})
        EXPECT_TRUE(fs::exists(out / f)) << f;
    const auto j = inspect_json(out);
    ASSERT_TRUE(j.is_object());
    EXPECT_TRUE(j["valid"].get<bool>());
    EXPECT_EQ(j["type"], "Gator");
    EXPECT_TRUE(j.contains("created"));
    EXPECT_GT(j["frames"].get<int>(), 5);
    EXPECT_GT(counter_values(j), 100U);
    EXPECT_GT(j["threads"].size(), 0U);
    EXPECT_GE(j["span_s"].get<double>(), 0.9);
    for (const auto& c : j["counters"]) EXPECT_GT(c["values"].get<int>(), 0) << c.dump();

    auto [drc, dump] = run_apcgate({"inspect", "--dump", out.string()});
    EXPECT_EQ(drc, 0);
    EXPECT_NE(dump.find(" Summary "), std::string::npos);
    EXPECT_NE(dump.find("frame BlockCounter"), std::string::npos);
}

TEST(Record, SigintStopsCleanly) {
    const fs::path out = temp_dir("rec") / "int.apc";
    DaemonProcess p({"record", "-o", out.string()});
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    p.signal(SIGINT);
    ASSERT_EQ(p.wait(), std::optional<int>(0)) << p.log();
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>());
    EXPECT_EQ(j["end"], "clean");
    EXPECT_GT(counter_values(j), 0U);
}

TEST(Record, SigkillLeavesACaptureReadableUpToTheLastFlush) {
    const fs::path out = temp_dir("rec") / "kill.apc";
    DaemonProcess p({"record", "-o", out.string()});
    // Wait until several live-rate flushes reached the file.
    for (int i = 0; i < 100 && (!fs::exists(out / "0000000000") || fs::file_size(out / "0000000000") < 2000); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    p.signal(SIGKILL);
    ASSERT_EQ(p.wait(), std::optional<int>(128 + SIGKILL));
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>()) << j.dump(2);
    EXPECT_GT(j["frames"].get<int>(), 3);
    EXPECT_GT(counter_values(j), 0U);
}

TEST(Record, FollowsACommandUntilItExits) {
    const fs::path out = temp_dir("rec") / "cmd.apc";
    auto [rc, log] = run_apcgate({"record", "-o", out.string(), "--", "/bin/sleep", "0.5"},
                                 std::chrono::seconds(20));
    ASSERT_EQ(rc, 0) << log;
    EXPECT_NE(log.find("command exited"), std::string::npos) << log;
    EXPECT_TRUE(inspect_json(out)["valid"].get<bool>());
}

TEST(Record, RefusesAnExistingDirectoryUnlessForcedAndDeletesNothingElse) {
    const fs::path out = temp_dir("rec") / "exists.apc";
    fs::create_directories(out);
    std::ofstream(out / "notes.txt") << "keep me";
    auto [rc, log] = run_apcgate({"record", "-o", out.string(), "-d", "1"});
    EXPECT_EQ(rc, 4) << log;
    EXPECT_FALSE(fs::exists(out / "0000000000"));
    auto [rc2, log2] = run_apcgate({"record", "-o", out.string(), "-d", "1", "--force"});
    EXPECT_EQ(rc2, 0) << log2;
    EXPECT_TRUE(fs::exists(out / "notes.txt"));
    EXPECT_TRUE(inspect_json(out)["valid"].get<bool>());
}

TEST(Record, BadSessionFileIsInvalidInput) {
    const fs::path dir = temp_dir("rec");
    std::ofstream(dir / "session.xml") << "<session version='1' sample_rate='sometimes'/>";
    auto [rc, log] = run_apcgate({"record", "-o", (dir / "x.apc").string(), "--session",
                                  (dir / "session.xml").string()});
    EXPECT_EQ(rc, 3) << log;
    EXPECT_NE(log.find("sample_rate"), std::string::npos) << log;
    EXPECT_FALSE(fs::exists(dir / "x.apc"));
}

TEST(Inspect, CorruptDataIsInvalidWithItsOffset) {
    const fs::path out = temp_dir("rec") / "corrupt.apc";
    auto [rc, log] = run_apcgate({"record", "-o", out.string(), "-d", "1", "--sample-rate", "low"});
    ASSERT_EQ(rc, 0) << log;
    // Overwrite the second frame's length prefix with a negative length.
    std::fstream f(out / "0000000000", std::ios::in | std::ios::out | std::ios::binary);
    unsigned char len[4];
    f.read(reinterpret_cast<char*>(len), 4);  // NOLINT
    const std::uint32_t first = len[0] | len[1] << 8 | len[2] << 16 | static_cast<std::uint32_t>(len[3]) << 24;
    f.seekp(4 + first);
    f.write("\xff\xff\xff\xff", 4);
    f.close();
    auto [irc, text] = run_apcgate({"inspect", out.string()});
    EXPECT_EQ(irc, 3) << text;
    EXPECT_NE(text.find("offset " + std::to_string(4 + first)), std::string::npos) << text;
    const auto j = inspect_json(out, 3);
    EXPECT_FALSE(j["valid"].get<bool>());
    EXPECT_EQ(j["frames"].get<int>(), 1);  // the frame before the damage is kept
}

TEST(Inspect, MissingCaptureIsAnError) {
    auto [rc, text] = run_apcgate({"inspect", (temp_dir("none") / "nope.apc").string()});
    EXPECT_EQ(rc, 1);
    EXPECT_NE(text.find("captured.xml"), std::string::npos) << text;
}

TEST(Cli, HelpVersionAndUsageErrors) {
    auto [rc, text] = run_apcgate({"--version"});
    EXPECT_EQ(rc, 0);
    EXPECT_NE(text.find("apcgate "), std::string::npos);
    // The commit it was built from: git's when the source is a checkout (the build ran in it).
    EXPECT_NE(text.find(" (commit "), std::string::npos) << text;
    const std::string git = std::string("git -C ") + APCGATE_SOURCE_DIR + " rev-parse --short=12 HEAD";
    if (FILE* p = std::filesystem::exists(std::string(APCGATE_SOURCE_DIR) + "/.git")
                      ? popen(git.c_str(), "r")
                      : nullptr) {
        char head[64] = {};
        const bool got = std::fgets(head, sizeof head, p) != nullptr;
        pclose(p);
        if (got) {
            std::string commit(head);
            commit.erase(commit.find_last_not_of("\n") + 1);
            EXPECT_NE(text.find("(commit " + commit), std::string::npos) << text;
        }
    }
    for (const char* sub : {"serve", "record", "inspect", "convert"}) {
        auto [hrc, help] = run_apcgate({sub, "--help"});
        EXPECT_EQ(hrc, 0) << sub;
        EXPECT_NE(help.find("Usage"), std::string::npos) << sub << help;
    }
    auto [urc, usage] = run_apcgate({"record"});
    EXPECT_EQ(urc, 2) << usage;
    auto [brc, bad] = run_apcgate({"serve", "--port", "notaport"});
    EXPECT_EQ(brc, 2) << bad;
}

}  // namespace
}  // namespace apcgate::e2e
