// `apcgate record` then `apcgate inspect`, as a user runs them: duration, SIGINT, SIGKILL
// (readable up to the last flush), a command to follow, refusing to overwrite, bad inputs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <thread>

#include "daemon_process.hpp"
#include "tests/support/test_paths.hpp"

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
    // What the recording counted is kept with it: the encoder's count of frames is the
    // frames inspect reads back, every source's table is there, and the text says so.
    ASSERT_TRUE(j["statistics"].is_array()) << j.dump();
    std::map<std::string, std::map<std::string, std::uint64_t>> recorded;
    for (const auto& part : j["statistics"])
        for (const auto& st : part["statistics"])
            recorded[part["who"]][st["name"]] = st["value"].get<std::uint64_t>();
    ASSERT_TRUE(recorded.count("encoder")) << j["statistics"].dump();
    EXPECT_EQ(recorded["encoder"]["encoder_frames"], j["frames"].get<std::uint64_t>());
    EXPECT_EQ(recorded["encoder"]["encoder_out_of_order"], 0u);
    EXPECT_TRUE(recorded.count("procfs")) << j["statistics"].dump();
    auto [trc, text] = run_apcgate({"inspect", out.string()});
    EXPECT_EQ(trc, 0) << text;
    EXPECT_NE(text.find("statistics counted while the capture was made (statistics.json)"),
              std::string::npos)
        << text;

    auto [drc, dump] = run_apcgate({"inspect", "--dump", out.string()});
    EXPECT_EQ(drc, 0);
    EXPECT_NE(dump.find(" Summary "), std::string::npos);
    EXPECT_NE(dump.find("frame BlockCounter"), std::string::npos);
}

TEST(Record, SigintStopsCleanly) {
    const fs::path out = temp_dir("rec") / "int.apc";
    DaemonProcess p({"record", "-o", out.string()});
    ASSERT_TRUE(p.wait_for_log("recording into")) << p.log();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    p.signal(SIGINT);
    ASSERT_EQ(p.wait(), std::optional<int>(0)) << p.log();
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>());
    EXPECT_EQ(j["end"], "clean");
    EXPECT_GT(counter_values(j), 0U);
}

// A Ctrl-C typed while the capture is still being set up (on a loaded machine that can take a
// second) used to kill the process with the output half made; it now ends the capture as soon as
// it has begun, and a command that was to be recorded never runs. The signal is sent while
// blocked, so it arrives at the daemon's first unblocking, the earliest point of its set-up.
TEST(Record, SigintDuringSetUpEndsTheCaptureAtItsStartAndTheCommandNeverRuns) {
    const fs::path dir = temp_dir("rec");
    const fs::path out = dir / "early.apc";
    const fs::path ran = dir / "ran";
    std::optional<DaemonProcess> p;
    {
        const e2e::SignalBlocked blocked(SIGINT);
        p.emplace(std::vector<std::string>{"record", "-o", out.string(), "--", "/usr/bin/touch",
                                           ran.string()});
        p->signal(SIGINT);
    }
    ASSERT_EQ(p->wait(std::chrono::seconds(30)), std::optional<int>(0)) << p->log();
    EXPECT_NE(p->log().find("interrupted (SIGINT)"), std::string::npos) << p->log();
    EXPECT_FALSE(fs::exists(ran));
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>()) << j.dump();
    EXPECT_EQ(j["end"], "clean");
}

TEST(Record, SigkillLeavesACaptureReadableUpToTheLastFlush) {
    const fs::path out = temp_dir("rec") / "kill.apc";
    DaemonProcess p({"record", "-o", out.string()});
    // Wait until several live-rate flushes reached the file.
    for (int i = 0;
         i < 100 && (!fs::exists(out / "0000000000") || fs::file_size(out / "0000000000") < 2000);
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    p.signal(SIGKILL);
    ASSERT_EQ(p.wait(), std::optional<int>(128 + SIGKILL));
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>()) << j.dump(2);
    EXPECT_GT(j["frames"].get<int>(), 3);
    EXPECT_GT(counter_values(j), 0U);
    // Killed before its end: no statistics, and inspect says none were recorded.
    EXPECT_FALSE(fs::exists(out / "statistics.json"));
    EXPECT_TRUE(j["statistics"].is_null()) << j.dump(2);
    // No disk space stays allocated past the data (issue 27: 8 MiB past a 2 MB capture): at
    // most the last block and what the filesystem rounds to.
    struct stat st {};
    ASSERT_EQ(::stat((out / "0000000000").c_str(), &st), 0);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    EXPECT_LE(static_cast<std::uint64_t>(st.st_blocks) * 512, (size + 4095) / 4096 * 4096 + 65536)
        << "size " << size;
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
    auto [rc, log] = run_apcgate(
        {"record", "-o", (dir / "x.apc").string(), "--session", (dir / "session.xml").string()});
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
    const std::uint32_t first =
        len[0] | len[1] << 8 | len[2] << 16 | static_cast<std::uint32_t>(len[3]) << 24;
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

// A hand-made capture: captured.xml declaring `cores` cores and counter key 3, and the given
// frame bodies, each after its length, as 0000000000.
fs::path handmade_capture(const std::string& name, int cores,
                          const std::vector<std::vector<std::uint8_t>>& bodies) {
    fs::path dir = temp_dir("inspect") / name;
    fs::create_directories(dir);
    std::ofstream(dir / "captured.xml")
        << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<captured version=\"1\" type=\"Gator\" "
           "protocol=\"680\"><target name=\"t\" sample_rate=\"1000\" cores=\""
        << cores
        << "\" cpuid=\"0x0\" supports_live=\"yes\"/><counters><counter key=\"0x3\" "
           "type=\"t_count\"/></counters></captured>\n";
    std::ofstream(dir / "session.xml")
        << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<session version=\"1\"/>\n";
    std::ofstream(dir / "events.xml") << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<events/>\n";
    std::ofstream data(dir / "0000000000", std::ios::binary);
    for (const auto& b : bodies) {
        const auto n = static_cast<std::uint32_t>(b.size());
        const char len[4] = {static_cast<char>(n & 0xff), static_cast<char>(n >> 8 & 0xff),
                             static_cast<char>(n >> 16 & 0xff), static_cast<char>(n >> 24)};
        data.write(len, 4);
        data.write(reinterpret_cast<const char*>(b.data()),  // NOLINT
                   static_cast<std::streamsize>(b.size()));
    }
    return dir;
}

// Summary frame: Summary message, canary, times 0, no attributes.
std::vector<std::uint8_t> summary_frame() {
    std::vector<std::uint8_t> b{0x01, 0x01, 0x0b};
    for (char c : std::string("1\n2\r\n3\r4\n\r5")) b.push_back(static_cast<std::uint8_t>(c));
    for (int v : {0x00, 0x00, 0x00, 0x00}) b.push_back(static_cast<std::uint8_t>(v));
    return b;
}

// "at least one Activity, Counter or Block Counter message must be present": a capture of
// annotations alone is invalid, reported at the end of the data.
TEST(Inspect, ACaptureWithoutActivityOrCounterMessagesIsInvalid) {
    const auto summary = summary_frame();
    const std::vector<std::uint8_t> annotate{0x06, 0x00, 0x05, 0x0A, 0x02, 'h', 'i'};
    const auto dir = handmade_capture("no-counter.apc", 2, {summary, annotate});
    auto [rc, text] = run_apcgate({"inspect", dir.string()});
    EXPECT_EQ(rc, 3) << text;
    const std::size_t end = 4 + summary.size() + 4 + annotate.size();
    EXPECT_NE(text.find("rule violated at offset " + std::to_string(end) +
                        ": no Activity, Counter or Block Counter message"),
              std::string::npos)
        << text;
    // The same capture with one counter value is valid.
    const std::vector<std::uint8_t> counter{0x04, 0x0A, 0x01, 0x03, 0x01};  // core 1 of 2
    const auto good = handmade_capture("counter.apc", 2, {summary, annotate, counter});
    auto [grc, gtext] = run_apcgate({"inspect", good.string()});
    EXPECT_EQ(grc, 0) << gtext;
}

// Every core a message names must be below captured.xml's cores: a Counter message on core 2
// of a 2-core capture is invalid, reported at its offset.
TEST(Inspect, AMessageOnACoreTheCaptureDoesNotDeclareIsInvalidWithItsOffset) {
    const auto summary = summary_frame();
    const std::vector<std::uint8_t> counter{0x04, 0x0A, 0x02, 0x03, 0x01};
    const auto dir = handmade_capture("core-2.apc", 2, {summary, counter});
    auto [rc, text] = run_apcgate({"inspect", dir.string()});
    EXPECT_EQ(rc, 3) << text;
    const std::size_t at = 4 + summary.size() + 4 + 1;  // the message, after the frame code
    EXPECT_NE(text.find("rule violated at offset " + std::to_string(at) +
                        ": Counter message core 2 is not one of the 2 cores"),
              std::string::npos)
        << text;
    const auto j = inspect_json(dir, 3);
    EXPECT_FALSE(j["valid"].get<bool>());
    ASSERT_EQ(j["violations"].size(), 1U);
    EXPECT_EQ(j["violations"][0]["offset"], at);
}

// A local capture directory holds captured.xml, session.xml, events.xml and 0000000000.
TEST(Inspect, ACaptureWithoutItsSessionOrEventsXmlIsInvalid) {
    const std::vector<std::uint8_t> counter{0x04, 0x0A, 0x00, 0x03, 0x01};
    const auto dir = handmade_capture("no-events.apc", 1, {summary_frame(), counter});
    EXPECT_EQ(run_apcgate({"inspect", dir.string()}).first, 0);
    fs::remove(dir / "events.xml");
    auto [rc, text] = run_apcgate({"inspect", dir.string()});
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(text.find("events.xml is missing"), std::string::npos) << text;
}

// Events XML: "Only 'maximum', 'minimum', and 'average' are valid for absolute counters".
TEST(Inspect, AnEventsXmlDisplayItsClassDoesNotAllowIsInvalid) {
    const std::vector<std::uint8_t> counter{0x04, 0x0A, 0x00, 0x03, 0x01};
    const auto dir = handmade_capture("display.apc", 1, {summary_frame(), counter});
    const auto write_events = [&](const char* display) {
        std::ofstream(dir / "events.xml")
            << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<events><category name=\"T\">"
               "<event counter=\"t_count\" title=\"T\" name=\"count\" class=\"absolute\" "
               "display=\""
            << display << "\"/></category></events>\n";
    };
    write_events("maximum");
    EXPECT_EQ(run_apcgate({"inspect", dir.string()}).first, 0);
    write_events("hertz");
    auto [rc, text] = run_apcgate({"inspect", dir.string()});
    EXPECT_EQ(rc, 3) << text;
    EXPECT_NE(text.find("counter t_count of class absolute has display 'hertz'"), std::string::npos)
        << text;
}

// statistics.json is not part of the APC format: one that is damaged (or hostile) is a warning
// with its kind, and the capture is still judged on its frames alone.
TEST(Inspect, ADamagedStatisticsFileIsAWarningNotAnInvalidCapture) {
    const fs::path out = temp_dir("rec") / "stats.apc";
    auto [rc, log] = run_apcgate({"record", "-o", out.string(), "-d", "1", "--sample-rate", "low"});
    ASSERT_EQ(rc, 0) << log;
    std::ofstream(out / "statistics.json", std::ios::trunc)
        << "{\"apcgate_statistics\": 1, \"parts\": 5}";
    const auto j = inspect_json(out);
    EXPECT_TRUE(j["valid"].get<bool>()) << j.dump(2);
    EXPECT_TRUE(j["statistics"].is_null());
    EXPECT_EQ(j["statistics_error"]["kind"], "malformed") << j.dump(2);
    auto [trc, text] = run_apcgate({"inspect", out.string()});
    EXPECT_EQ(trc, 0) << text;
    EXPECT_NE(text.find("warning: " + (out / "statistics.json").string()), std::string::npos)
        << text;
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
    // The commit it was built from: in a checkout, one of its commits (HEAD when it was built;
    // a later commit may have come since), with "-dirty" for uncommitted changes.
    static const std::regex kNamed(R"( \(commit ([0-9a-f]{7,40})(-dirty)?\))");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, kNamed)) << text;
    if (std::filesystem::exists(std::string(apcgate::test_paths::source_dir()) + "/.git")) {
        const std::string known = std::string("git -C ") + apcgate::test_paths::source_dir() +
                                  " cat-file -e " + m[1].str() + "^{commit}";
        EXPECT_EQ(std::system(known.c_str()), 0) << m[1] << " is no commit of the checkout";
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
