// `apcgate diff`: captures whose one span doubles trip a --fail-if rule (exit 5), an unchanged
// pair does not (exit 0), and a malformed rule is a usage error (exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "daemon_process.hpp"
#include "synthetic_capture.hpp"

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
    const fs::path xray = fs::path(APCGATE_TESTDATA_DIR) / "xray";
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
    auto [frc, failed] = run_apcgate({"diff", p.base.string(), p.doubled.string(), "--fail-if", rule});
    EXPECT_EQ(frc, 5) << failed;
    EXPECT_NE(failed.find("FAILED"), std::string::npos) << failed;
    auto [orc, ok] = run_apcgate({"diff", p.base.string(), p.same.string(), "--fail-if", rule});
    EXPECT_EQ(orc, 0) << ok;
    // A rule on the unchanged span passes even across the doubled pair.
    auto [crc, cold] = run_apcgate(
        {"diff", p.base.string(), p.doubled.string(), "--fail-if", "spans[cold()].total_ns > +10%"});
    EXPECT_EQ(crc, 0) << cold;
}

TEST(Diff, JsonShowsTheChangeFirst) {
    const Pair p = captures();
    auto [rc, text] = run_apcgate({"diff", "--json", p.base.string(), p.doubled.string(), "--fail-if",
                                   "spans[*].count > +0"});
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
    auto [rc, text] = run_apcgate({"diff", p.base.string(), p.same.string(), "--fail-if",
                                   "spans[hot].total_ns >> 10"});
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
    const fs::path xray = fs::path(APCGATE_TESTDATA_DIR) / "xray";
    auto [crc, clog] = run_apcgate({"convert", (xray / "fdr-log-version-3.xray").string(), "--binary",
                                    (xray / "elf64-sample-o2.bin").string(), "-o",
                                    (dir / "like.apc").string()});
    ASSERT_EQ(crc, 0) << clog;
    std::vector<model::Event> events;
    const model::Rgb red{255, 0, 0};
    for (int i = 0; i < 5; ++i) {
        const std::int64_t t = 1000 + i * 1000;
        events.emplace_back(model::Annotation{t, 0, 1, model::StringAnnotation{1, red, "red [1]"}});
        events.emplace_back(model::Annotation{t + 100, 0, 1, model::StringAnnotation{2, std::nullopt, "plain"}});
        events.emplace_back(model::Annotation{t + 200, 0, 1, model::StringAnnotation{2, std::nullopt, {}}});
        events.emplace_back(model::Annotation{t + 300, 0, 1, model::StringAnnotation{1, std::nullopt, {}}});
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
