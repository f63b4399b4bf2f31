// `apcgate diff`: captures whose one span doubles trip a --fail-if rule (exit 5), an unchanged
// pair does not (exit 0), and a malformed rule is a usage error (exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "daemon_process.hpp"
#include "protocol/wire/byte_writer.hpp"
#include "synthetic_capture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::analysis_test {
namespace {

using e2e::run_apcgate;
using e2e::temp_dir;
namespace fs = std::filesystem;

struct Pair {
    fs::path base, doubled, same;
};

// Captures of 20 calls of "hot" and 20 of "cold": in `doubled` each hot call lasts twice as long.
Pair captures() {
    const fs::path dir = temp_dir("diff");
    const fs::path like = dir / "like.apc";
    const fs::path xray = fs::path(apcgate::test_paths::testdata_dir()) / "xray";
    auto [rc, log] = run_apcgate({"convert", (xray / "fdr-log-version-3.xray").string(), "--binary",
                                  (xray / "elf64-sample-o2.bin").string(), "-o", like.string()});
    EXPECT_EQ(rc, 0) << log;
    auto make = [&](const std::string& name, std::int64_t hot_ns) {
        std::vector<model::Event> events;
        add_spans(events, "hot(long)", 1, 1000, hot_ns, 20);
        add_spans(events, "cold()", 2, 1000, 5000, 20);
        write_capture(like, dir / name, events);
        return dir / name;
    };
    return {make("base.apc", 10000), make("doubled.apc", 20000), make("same.apc", 10000)};
}

TEST(Diff, DoubledSpanTripsTheRuleAndUnchangedPairPasses) {
    const Pair p = captures();
    const std::string rule = "spans[hot(long)].total_ns > +10%";
    auto [frc, failed] =
        run_apcgate({"diff", p.base.string(), p.doubled.string(), "--fail-if", rule});
    EXPECT_EQ(frc, 5) << failed;
    EXPECT_NE(failed.find("FAILED"), std::string::npos) << failed;
    auto [orc, ok] = run_apcgate({"diff", p.base.string(), p.same.string(), "--fail-if", rule});
    EXPECT_EQ(orc, 0) << ok;
    // A rule on the unchanged span passes even across the doubled pair.
    auto [crc, cold] = run_apcgate({"diff", p.base.string(), p.doubled.string(), "--fail-if",
                                    "spans[cold()].total_ns > +10%"});
    EXPECT_EQ(crc, 0) << cold;
}

TEST(Diff, JsonShowsTheChangeFirst) {
    const Pair p = captures();
    auto [rc, text] = run_apcgate({"diff", "--json", p.base.string(), p.doubled.string(),
                                   "--fail-if", "spans[*].count > +0"});
    ASSERT_EQ(rc, 0) << text;
    const auto j = nlohmann::json::parse(text.substr(text.find('{')));
    ASSERT_GE(j["spans"].size(), 2u);
    EXPECT_EQ(j["spans"][0]["name"], "hot(long)");
    EXPECT_DOUBLE_EQ(j["spans"][0]["a"]["total_ns"].get<double>(), 200000.0);
    EXPECT_DOUBLE_EQ(j["spans"][0]["b"]["total_ns"].get<double>(), 400000.0);
    EXPECT_DOUBLE_EQ(j["spans"][0]["relative_change"]["total_ns"].get<double>(), 1.0);
    EXPECT_EQ(j["rules"][0]["failed"], false);
}

TEST(Diff, MalformedRuleIsAUsageError) {
    const Pair p = captures();
    auto [rc, text] = run_apcgate(
        {"diff", p.base.string(), p.same.string(), "--fail-if", "spans[hot].total_ns >> 10"});
    EXPECT_EQ(rc, 2) << text;
    EXPECT_NE(text.find("bad --fail-if rule"), std::string::npos) << text;
}

}  // namespace
}  // namespace apcgate::analysis_test

namespace apcgate::analysis_test {
namespace {

// report reads the common string annotations in place and every other annotation the general
// way; mixed in one capture, each is counted once and in order.
TEST(ReportAnnotations, ColouredAndPlainSpansAndMarkersMixed) {
    const fs::path dir = temp_dir("mixed");
    const fs::path xray = fs::path(apcgate::test_paths::testdata_dir()) / "xray";
    auto [crc, clog] =
        run_apcgate({"convert", (xray / "fdr-log-version-3.xray").string(), "--binary",
                     (xray / "elf64-sample-o2.bin").string(), "-o", (dir / "like.apc").string()});
    ASSERT_EQ(crc, 0) << clog;
    std::vector<model::Event> events;
    const model::Rgb red{255, 0, 0};
    for (int i = 0; i < 5; ++i) {
        const std::int64_t t = 1000 + i * 1000;
        events.emplace_back(model::Annotation{t, 0, 1, model::StringAnnotation{1, red, "red [1]"}});
        events.emplace_back(
            model::Annotation{t + 100, 0, 1, model::StringAnnotation{2, std::nullopt, "plain"}});
        events.emplace_back(
            model::Annotation{t + 200, 0, 1, model::StringAnnotation{2, std::nullopt, {}}});
        events.emplace_back(
            model::Annotation{t + 300, 0, 1, model::StringAnnotation{1, std::nullopt, {}}});
        events.emplace_back(model::Annotation{t + 400, 0, 1, model::MarkerAnnotation{red, "mark"}});
    }
    write_capture(dir / "like.apc", dir / "mixed.apc", events);
    auto [rc, text] = run_apcgate({"report", "--json", (dir / "mixed.apc").string()});
    ASSERT_EQ(rc, 0) << text;
    const auto j = nlohmann::json::parse(text.substr(text.find('{')));
    ASSERT_EQ(j["spans"].size(), 2u) << j["spans"].dump();
    EXPECT_EQ(j["spans"][0]["name"], "red");
    EXPECT_EQ(j["spans"][0]["count"], 5);
    EXPECT_EQ(j["spans"][0]["total_ns"], 1500);
    EXPECT_EQ(j["spans"][1]["name"], "plain");
    EXPECT_EQ(j["spans"][1]["count"], 5);
    EXPECT_EQ(j["spans"][1]["total_ns"], 500);
    ASSERT_EQ(j["instants"].size(), 1u);
    EXPECT_EQ(j["instants"][0]["count"], 5);
    EXPECT_TRUE(j["losses"].empty()) << j["losses"].dump();
}

}  // namespace
}  // namespace apcgate::analysis_test

namespace apcgate::analysis_test {
namespace {

// One connection of Arm's annotation library as a live capture forwards it (External frames):
// the handshake, then [code u8][length u32 LE][payload] messages.
class Connection {
  public:
    explicit Connection(std::uint32_t tid) {
        const std::string magic = "ANNOTATE 5\n";
        bytes.insert(bytes.end(), magic.begin(), magic.end());
        u32(tid);
        u32(tid);
        bytes.push_back(0);
    }
    void string(std::int64_t time, std::int32_t channel, const std::string& text) {
        std::vector<std::uint8_t> payload;
        wire::ByteWriter w(payload);
        w.packed64(time);
        w.packed32(channel);
        payload.insert(payload.end(), text.begin(), text.end());
        message(0x01, payload);
    }
    void marker(std::int64_t time, const std::string& text) {
        std::vector<std::uint8_t> payload;
        wire::ByteWriter(payload).packed64(time);
        payload.insert(payload.end(), text.begin(), text.end());
        message(0x06, payload);
    }
    void message(std::uint8_t code, const std::vector<std::uint8_t>& payload) {
        bytes.push_back(code);
        u32(static_cast<std::uint32_t>(payload.size()));
        bytes.insert(bytes.end(), payload.begin(), payload.end());
    }
    std::vector<std::uint8_t> bytes;

  private:
    void u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
};

// Application spans of live captures come in External frames: each connection's channels are
// its own, streams split anywhere are joined, markers are counted, and a connection that breaks
// the protocol is a loss, not a failure.
TEST(ReportAnnotations, ApplicationSpansFromAnnotationConnections) {
    const fs::path dir = temp_dir("connections");
    const fs::path xray = fs::path(apcgate::test_paths::testdata_dir()) / "xray";
    auto [crc, clog] =
        run_apcgate({"convert", (xray / "fdr-log-version-3.xray").string(), "--binary",
                     (xray / "elf64-sample-o2.bin").string(), "-o", (dir / "like.apc").string()});
    ASSERT_EQ(crc, 0) << clog;
    Connection a(100), b(101), bad(102);
    a.string(1000, 1, "request");
    b.string(2000, 1, "other");  // the same channel number on another connection
    b.string(2500, 1, "");
    a.string(4000, 1, "");
    a.marker(4500, "boot");
    a.string(5000, 1, "request");
    a.string(6000, 1, "");
    bad.message(0x7e, {1, 2, 3});  // no such message code
    std::vector<model::Event> events;
    const std::size_t half = a.bytes.size() / 2 + 3;  // mid-message
    events.emplace_back(model::ExternalData{
        10, 3, {a.bytes.begin(), a.bytes.begin() + static_cast<std::ptrdiff_t>(half)}});
    events.emplace_back(model::ExternalData{20, 4, b.bytes});
    events.emplace_back(model::ExternalData{
        30, 3, {a.bytes.begin() + static_cast<std::ptrdiff_t>(half), a.bytes.end()}});
    events.emplace_back(model::ExternalData{40, 5, bad.bytes});
    events.emplace_back(model::ExternalDisconnect{50, 3});
    write_capture(dir / "like.apc", dir / "live.apc", events);
    auto [rc, text] = run_apcgate({"report", "--json", (dir / "live.apc").string()});
    ASSERT_EQ(rc, 0) << text;
    const auto j = nlohmann::json::parse(text.substr(text.find('{')));
    ASSERT_EQ(j["spans"].size(), 2u) << j["spans"].dump();
    EXPECT_EQ(j["spans"][0]["name"], "request");
    EXPECT_EQ(j["spans"][0]["count"], 2);
    EXPECT_EQ(j["spans"][0]["total_ns"], 4000);
    EXPECT_EQ(j["spans"][1]["name"], "other");
    EXPECT_EQ(j["spans"][1]["total_ns"], 500);
    ASSERT_EQ(j["instants"].size(), 1u);
    EXPECT_EQ(j["instants"][0]["name"], "boot");
    ASSERT_EQ(j["losses"].size(), 1u) << j["losses"].dump();
    EXPECT_EQ(j["losses"][0]["name"], "annotation_connections_broken");
    EXPECT_EQ(j["losses"][0]["value"], 1);
    EXPECT_EQ(j["losses"][0]["severity"], "error");
}

}  // namespace
}  // namespace apcgate::analysis_test
