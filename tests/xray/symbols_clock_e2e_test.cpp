// The real apcgate binary end to end on what names an XRay log's calls and times them: a
// stripped --binary named from its debug file, several binaries for the logs of several
// programs, and a wrong cycle frequency corrected from the log's own clock stamps (also when
// two logs of one run end up at different rates).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "convert_run.hpp"
#include "daemon_process.hpp"
#include "fdr_builder.hpp"
#include "spans_from_capture.hpp"
#include "workload_logs.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

using e2e::run_apcgate;

TEST(XrayConvert, AStrippedBinaryIsNamedFromItsDebugFileOrSaysWhatIsMissing) {
    // What a board has: the program stripped, its debug file kept by the build (here by build
    // ID under a debug directory of the test's own, as Debian's -dbgsym packages lay it out).
    if (clangxx().empty() || run("command -v objcopy >/dev/null && command -v strip").first != 0)
        GTEST_SKIP() << "needs clang-14 and binutils";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto log = run_workload(*w, "e2e-stripped", "xray-fdr", 2, 3,
                                  "func_duration_threshold_us=0", "", &error);
    ASSERT_FALSE(log.empty()) << error;
    const ScratchDir dir("xray-stripped");
    const auto stripped = dir.path / "workload";
    std::filesystem::copy_file(w->binary, stripped);
    ASSERT_EQ(run("strip '" + stripped.string() + "'").first, 0);
    const auto id =
        run("readelf -n '" + stripped.string() + "' | awk '/Build ID/ {printf \"%s\", $3}'").second;
    ASSERT_GE(id.size(), 4U);
    const auto root = dir.path / "debug";
    const auto debug = root / ".build-id" / id.substr(0, 2) / (id.substr(2) + ".debug");
    std::filesystem::create_directories(debug.parent_path());
    ASSERT_EQ(run("objcopy --only-keep-debug '" + w->binary.string() + "' '" + debug.string() + "'")
                  .first,
              0);

    auto convert = [&](const std::vector<std::string>& extra, nlohmann::json& report) {
        const auto out = dir.path / "out.apc";
        std::vector<std::string> args{"convert", log.string(), "-o",       out.string(),
                                      "--json",  "--force",    "--binary", stripped.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto [rc, output] = run_apcgate(args);
        EXPECT_EQ(rc, 0) << output;
        report = json_of(output);
        return spans_of(read_capture(out.string()).events);
    };
    nlohmann::json named;
    const Spans with_debug = convert({"--debug-dir", root.string()}, named);
    const Spans reference = convert_and_read({log.string()}, w->binary.string(), nullptr);
    ASSERT_FALSE(reference.empty());
    EXPECT_EQ(with_debug, reference);
    ASSERT_EQ(named["inputs"][0]["notes"].size(), 1U) << named;
    EXPECT_NE(named["inputs"][0]["notes"][0].get<std::string>().find("are from its debug file " +
                                                                     debug.string()),
              std::string::npos)
        << named;

    nlohmann::json unnamed;
    const Spans without = convert({"--debug-dir", (dir.path / "empty").string()}, unnamed);
    EXPECT_NE(without, reference);
    ASSERT_EQ(unnamed["inputs"][0]["notes"].size(), 1U) << unnamed;
    const std::string note = unnamed["inputs"][0]["notes"][0];
    EXPECT_NE(
        note.find("is stripped (no .symtab) and no debug file of it was found (build ID " + id),
        std::string::npos)
        << note;
    EXPECT_EQ(unnamed["inputs"][0]["problem_count"], 0);  // the log itself is fine
}

TEST(XrayConvert, AWrongCycleFrequencyInTheHeaderIsCorrectedFromTheLogsClockStamps) {
    // LLVM's x86-64 runtime writes cpufreq's cpuinfo_max_freq as the TSC rate where the kernel
    // has no tsc_freq_khz. A real log with its header's frequency made 37 % too high (a 4.1 GHz
    // turbo clock over a 3 GHz TSC) converts to the same times as the log itself: its buffers'
    // CLOCK_MONOTONIC stamps measure the rate. The run lasts long enough for the stamps to tell.
    if (clangxx().empty()) GTEST_SKIP() << "needs clang-14";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto log =
        run_workload(*w, "e2e-rate", "xray-fdr", 2, 20000,
                     "buffer_size=4096:buffer_max=100000:func_duration_threshold_us=0", "", &error);
    ASSERT_FALSE(log.empty()) << error;
    auto bytes = read_bytes(log);
    ASSERT_GT(bytes.size(), 32U);
    std::uint64_t hz = 0;
    std::memcpy(&hz, bytes.data() + 8, sizeof hz);  // the header's cycle frequency (LE)
    ASSERT_GT(hz, 0U);
    const std::uint64_t wrong = hz / 100 * 137;
    std::memcpy(bytes.data() + 8, &wrong, sizeof wrong);
    const ScratchDir dir("xray-rate");
    const auto patched = dir.path / "patched.xray";
    write_bytes(patched, bytes);

    auto times = [&](const std::filesystem::path& in, nlohmann::json& report) {
        const auto out = dir.path / "out.apc";
        const auto [rc, output] =
            run_apcgate({"convert", in.string(), "-o", out.string(), "--json", "--force"});
        EXPECT_EQ(rc, 0) << output;
        report = json_of(output);
        std::vector<model::Nanos> ts;
        for (const auto& ev : read_capture(out.string()).events)
            if (const auto* a = std::get_if<model::Annotation>(&ev)) ts.push_back(a->ts);
        return ts;
    };
    nlohmann::json original_report;
    nlohmann::json patched_report;
    const auto original = times(log, original_report);
    const auto corrected = times(patched, patched_report);
    ASSERT_EQ(original.size(), corrected.size());
    ASSERT_GT(original.size(), 1000U);
    ASSERT_GT(original.back(), 20'000'000) << "the run was too short to measure";
    for (std::size_t i = 0; i < original.size(); i += 97)
        EXPECT_NEAR(static_cast<double>(corrected[i]), static_cast<double>(original[i]),
                    1e-2 * static_cast<double>(original[i]) + 2000)
            << i;
    // Converted without --binary: one note says how to name the calls, one that the rate was
    // corrected.
    const auto& notes = patched_report["inputs"][0]["notes"];
    ASSERT_EQ(notes.size(), 2U) << patched_report;
    EXPECT_EQ(notes[0].get<std::string>().rfind("no --binary: calls are named fn#ID", 0), 0U)
        << notes;
    EXPECT_NE(notes[1].get<std::string>().find("% off the rate the log's clock stamps"),
              std::string::npos)
        << notes;
}

TEST(XrayConvert, LogsOfOneRunAtDifferentMeasuredRatesLineUpOnClockMonotonic) {
    // Two logs of one run, both headers claiming 3 GHz for a TSC at 2 GHz, the TSC ~6 days from
    // boot. A's stamps span a second (its rate is measured: 2 GHz); B's span 5 ms (too short: it
    // keeps 3 GHz). B's first call was 0.5 s after A's. Kept at one domain's distances, the same
    // TSC at two rates would put B a day and a half away; each log's clock stamps put it right.
    const ScratchDir dir("xray-two-rates");
    constexpr std::uint64_t kBootTsc = 1'000'000'000'000'000;  // 5.8 days at 2 GHz
    auto buffer = [&](FdrBuilder& b, std::int32_t tid, std::int64_t mono_us) {
        const auto tsc = kBootTsc + static_cast<std::uint64_t>(mono_us) * 2000;
        b.next_wall_clock(static_cast<std::uint64_t>(mono_us / 1'000'000),
                          static_cast<std::uint32_t>(mono_us % 1'000'000))
            .begin_buffer(tid, 70, 0, tsc)
            .enter(1, 0)
            .exit(1, 2000)
            .end_buffer();
    };
    constexpr std::int64_t kStartUs = 600'000'000'000;  // A's first buffer at 600000 s
    FdrBuilder a(5, wire_endian::Little, collectors::xray::BitOrder::LsbFirst, 3'000'000'000);
    for (int k = 0; k <= 4; ++k) buffer(a, 1, kStartUs + std::int64_t{k} * 250'000);
    FdrBuilder b(5, wire_endian::Little, collectors::xray::BitOrder::LsbFirst, 3'000'000'000);
    buffer(b, 2, kStartUs + 500'000);
    buffer(b, 2, kStartUs + 505'000);
    write_bytes(dir.path / "a.xray", a.bytes());
    write_bytes(dir.path / "b.xray", b.bytes());
    const auto out = dir.path / "out.apc";
    const auto [rc, output] =
        run_apcgate({"convert", (dir.path / "a.xray").string(), (dir.path / "b.xray").string(),
                     "-o", out.string(), "--json"});
    ASSERT_EQ(rc, 0) << output;
    const auto report = json_of(output);
    // Both are converted without --binary (their first note says so); A's rate is measured
    // (a second note), B's run is too short to tell (none).
    const auto& a_notes = report["inputs"][0]["notes"];
    const auto& b_notes = report["inputs"][1]["notes"];
    ASSERT_EQ(a_notes.size(), 2U) << report;
    ASSERT_EQ(b_notes.size(), 1U) << report;
    for (const auto* notes : {&a_notes, &b_notes})
        EXPECT_EQ((*notes)[0].get<std::string>().rfind("no --binary: calls are named fn#ID", 0), 0U)
            << report;
    EXPECT_NE(a_notes[1].get<std::string>().find("cycle frequency"), std::string::npos) << report;
    std::map<std::int32_t, model::Nanos> first;
    for (const auto& ev : read_capture(out.string()).events)
        if (const auto* an = std::get_if<model::Annotation>(&ev)) first.emplace(an->tid, an->ts);
    ASSERT_EQ(first.size(), 2U);
    // B's own 5 ms are scaled at its header's wrong rate: its stamps place it within those.
    EXPECT_NEAR(static_cast<double>(first.at(2) - first.at(1)), 500'000'000.0, 2'000'000.0);
}

TEST(XrayConvert, SeveralBinariesNameEachLogByTheProgramInItsName) {
    // A run whose program starts another: one log per program, named by the runtime
    // <base><program>.XXXXXX. LLVM's sample log (of elf64-sample-o2.bin) and a log of the
    // workload, each given the name its program would have; both binaries on one command line.
    if (clangxx().empty()) GTEST_SKIP() << "needs clang-14";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto generated = run_workload(*w, "e2e-two-binaries", "xray-basic", 1, 3,
                                        "func_duration_threshold_us=0", "", &error);
    ASSERT_FALSE(generated.empty()) << error;
    const ScratchDir dir("xray-two-binaries");
    const auto sample_bin = testdata("elf64-sample-o2.bin");
    const auto sample_log = dir.path / ("xray-log." + sample_bin.filename().string() + ".aB3dE9");
    const auto workload_log = dir.path / ("xray-log." + w->binary.filename().string() + ".Zz09yX");
    std::filesystem::copy_file(testdata("naive-log-simple.xray"), sample_log);
    std::filesystem::copy_file(generated, workload_log);

    const Spans want_sample = convert_and_read({sample_log.string()}, sample_bin.string(), nullptr);
    const Spans want_workload =
        convert_and_read({workload_log.string()}, w->binary.string(), nullptr);
    ASSERT_FALSE(want_sample.empty());
    ASSERT_FALSE(want_workload.empty());
    Spans want = want_sample;
    want.insert(want_workload.begin(), want_workload.end());
    for (const auto& order : {std::vector<std::string>{sample_bin.string(), w->binary.string()},
                              std::vector<std::string>{w->binary.string(), sample_bin.string()}}) {
        // Each --binary and --debug-dir takes one value: the inputs may follow them.
        const auto out = dir.path / "both.apc";
        const auto [rc, output] =
            run_apcgate({"convert", "--binary", order[0], "--binary", order[1], "--debug-dir",
                         dir.path.string(), sample_log.string(), workload_log.string(), "-o",
                         out.string(), "--json", "--force"});
        ASSERT_EQ(rc, 0) << output;
        EXPECT_EQ(spans_of(read_capture(out.string()).events), want);
        const auto report = json_of(output);
        for (const auto& in : report["inputs"]) EXPECT_EQ(in["problem_count"], 0) << in;
    }

    // A log whose name gives none of the binaries: named fn#ID, and its note says why.
    const auto stray = dir.path / "renamed.xray";
    std::filesystem::copy_file(sample_log, stray);
    const auto out = dir.path / "stray.apc";
    const auto [rc, output] =
        run_apcgate({"convert", stray.string(), "-o", out.string(), "--json", "--binary",
                     sample_bin.string(), "--binary", w->binary.string()});
    ASSERT_EQ(rc, 0) << output;
    const auto report = json_of(output);
    ASSERT_EQ(report["inputs"][0]["notes"].size(), 1U) << report;
    EXPECT_NE(report["inputs"][0]["notes"][0].get<std::string>().find(
                  "no --binary is the program this log's name gives (renamed"),
              std::string::npos)
        << report;
    const Spans stray_spans = spans_of(read_capture(out.string()).events);
    ASSERT_EQ(stray_spans.size(), 1U);
    EXPECT_EQ(stray_spans.begin()->second.front().rfind("open depth 0 fn#", 0), 0U)
        << stray_spans.begin()->second.front();
}

}  // namespace
}  // namespace apcgate::xray_test
