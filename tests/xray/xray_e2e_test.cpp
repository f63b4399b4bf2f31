// The real apcgate binary end to end: `convert` XRay logs (LLVM's and ones clang-14's runtime
// writes now) into a capture that `inspect` validates and whose spans, read back, are llvm-xray's
// calls; several logs of one run on one timeline; damaged and foreign input; and `serve --source
// xray:PATH` streaming a log to a client at capture start.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "capture_check.hpp"
#include "collectors/xray/span_mapper.hpp"
#include "convert_run.hpp"
#include "daemon_process.hpp"
#include "fdr_builder.hpp"
#include "serve_fixture.hpp"
#include "spans_from_capture.hpp"
#include "statistic_value.hpp"
#include "tests/support/test_paths.hpp"
#include "workload_logs.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

using e2e::run_apcgate;

TEST(XrayConvert, SharedLogWithBinaryBecomesNamedSpans) {
    nlohmann::json report;
    nlohmann::json inspected;
    const auto spans =
        convert_and_read({testdata("naive-log-simple.xray").string()},
                         testdata("elf64-sample-o2.bin").string(), &report, 0, &inspected);
    EXPECT_EQ(inspected["target"]["cores"], 38);  // the log ran on CPU 37
    EXPECT_EQ(inspected["target"]["name"], "elf64-sample-o2.bin (XRay)");
    EXPECT_EQ(inspected["threads"]["84697"], "elf64-sample-o2.bin tid 84697");
    const std::vector<std::string> want{"open depth 0 main", "open depth 1 foo()",
                                        "close depth 1",     "open depth 1 bar()",
                                        "close depth 1",     "close depth 0"};
    ASSERT_EQ(spans.size(), 1U);
    EXPECT_EQ(spans.at(84697), want);
    const auto& in = report["inputs"][0];
    EXPECT_EQ(in["format"], "xray");
    EXPECT_TRUE(in["complete"].get<bool>());
    EXPECT_EQ(in["records"]["function-enter"]["read"], 3);
    EXPECT_EQ(in["records"]["function-enter"]["mapped"], 3);
    EXPECT_EQ(in["records"]["function-exit"]["mapped"], 3);
    EXPECT_EQ(in["bytes_read"], in["bytes"]);
}

TEST(XrayConvert, EverySharedLogMatchesItsReference) {
    for (const char* name :
         {"fdr-log-version-1", "fdr-log-arg1", "fdr-log-version-3", "fdr-log-arg1-version-3",
          "naive-with-arg1-entries", "basic-log-version-3", "basic-log-arg1-version-3"}) {
        const auto y = read_bytes(testdata(std::string(name) + ".ref.yaml"));
        std::string error;
        auto ref = parse_llvm_yaml(std::string(y.begin(), y.end()), &error);
        ASSERT_TRUE(ref) << error;
        auto threads = by_tid(ref->threads);
        sort_by_tsc(threads);
        Spans want;
        ASSERT_TRUE(expected_spans(threads, false, want)) << name;
        nlohmann::json report;
        nlohmann::json inspected;
        const auto got = convert_and_read({testdata(std::string(name) + ".xray").string()}, "",
                                          &report, 0, &inspected);
        EXPECT_EQ(got, want) << name;
        EXPECT_EQ(report["inputs"][0]["problem_count"], 0) << name;
        // Every CPU of the log is a core of the capture (inspect also checks that every
        // message's core is below the declared count).
        std::uint32_t max_cpu = 0;
        for (const auto& [key, recs] : ref->threads)
            for (const auto& r : recs) max_cpu = std::max(max_cpu, r.cpu);
        EXPECT_EQ(inspected["target"]["cores"], max_cpu + 1) << name;
    }
}

TEST(XrayConvert, GeneratedLogsOfOneRunShareOneTimelineAndMatchLlvmXray) {
    if (llvm_xray().empty() || clangxx().empty()) GTEST_SKIP() << "needs clang-14 and llvm-14";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto first = run_workload(
        *w, "e2e-rounds", "xray-fdr", 3, 10,
        "buffer_size=512:buffer_max=100000:func_duration_threshold_us=0", "cr", &error);
    ASSERT_FALSE(first.empty()) << error;
    const auto logs = logs_beside(first);
    ASSERT_EQ(logs.size(), 2U);
    Spans want;
    std::vector<std::pair<std::uint64_t, std::set<std::int64_t>>>
        runs;  // (first tsc, tids) per log
    for (const auto& log : logs) {
        auto ref = llvm_decode(log, w->binary, &error);
        ASSERT_TRUE(ref) << error;
        auto threads = by_tid(ref->threads);
        sort_by_tsc(threads);
        ASSERT_TRUE(expected_spans(threads, true, want));
        std::uint64_t first_tsc = UINT64_MAX;
        std::set<std::int64_t> tids;
        for (const auto& [key, recs] : threads) {
            tids.insert(key.second);
            first_tsc = std::min(first_tsc, recs.front().tsc);
        }
        runs.emplace_back(first_tsc, tids);
    }
    nlohmann::json report;
    const auto got =
        convert_and_read({logs[0].string(), logs[1].string()}, w->binary.string(), &report);
    EXPECT_EQ(got, want);
    EXPECT_GE(got.size(), 6U);  // three workers per round
    ASSERT_EQ(report["inputs"].size(), 2U);
    for (const auto& in : report["inputs"]) EXPECT_TRUE(in["complete"].get<bool>());

    // One timeline: the capture starts at the earlier log's first call, and every annotation of
    // the later log's threads comes after every one of the earlier log's.
    const ScratchDir dir("xray-timeline");
    const auto out = dir.path / "out.apc";
    ASSERT_EQ(
        run_apcgate({"convert", logs[1].string(), logs[0].string(), "-o", out.string()}).first, 0);
    const auto content = read_capture(out.string());
    std::sort(runs.begin(), runs.end());
    model::Nanos first_ts = INT64_MAX;
    model::Nanos earlier_last = INT64_MIN;
    model::Nanos later_first = INT64_MAX;
    for (const auto& ev : content.events) {
        const auto* a = std::get_if<model::Annotation>(&ev);
        if (a == nullptr) continue;
        first_ts = std::min(first_ts, a->ts);
        if (runs[0].second.count(a->tid)) earlier_last = std::max(earlier_last, a->ts);
        if (runs[1].second.count(a->tid)) later_first = std::min(later_first, a->ts);
    }
    EXPECT_GE(first_ts, 0);
    EXPECT_LT(first_ts, 1'000'000);  // within a millisecond of the earliest buffer's start
    EXPECT_LT(earlier_last, later_first);
    const auto [irc, inspected] = run_apcgate({"inspect", out.string(), "--json"});
    const auto ij = json_of(inspected);
    bool counters = false;
    for (const auto& c : ij["counters"])
        counters = counters || (c["type"].get<std::string>().rfind("XRay_calls_", 0) == 0 &&
                                c["values"].get<int>() > 0);
    EXPECT_TRUE(counters) << inspected;
}

// The deepest "open depth N" of each thread's spans.
std::size_t deepest_span(const Spans& spans) {
    std::size_t deepest = 0;
    for (const auto& [tid, list] : spans)
        for (const auto& s : list)
            if (s.rfind("open depth ", 0) == 0)
                deepest = std::max<std::size_t>(deepest, std::stoul(s.substr(11)));
    return deepest;
}

// A real program's recursion 300 calls deep (the worker at depth 0, deep(300) .. deep(1) at
// depths 1..300, and the leaf deep(1) tail-calls): every level is in the capture, call for call
// what llvm-xray decodes, and nothing is reported missing.
TEST(XrayConvert, DeepRecursionKeepsEveryLevelLikeLlvmXray) {
    if (llvm_xray().empty() || clangxx().empty()) GTEST_SKIP() << "needs clang-14 and llvm-14";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto log = run_workload(*w, "e2e-deep", "xray-fdr", 2, 3,
                                  "buffer_size=65536:buffer_max=1000:func_duration_threshold_us=0",
                                  "d300", &error);
    ASSERT_FALSE(log.empty()) << error;
    auto ref = llvm_decode(log, w->binary, &error);
    ASSERT_TRUE(ref) << error;
    auto threads = by_tid(ref->threads);
    sort_by_tsc(threads);
    Spans want;
    ASSERT_TRUE(expected_spans(threads, true, want));
    EXPECT_EQ(deepest_span(want), 300U);
    nlohmann::json report;
    const auto got = convert_and_read({log.string()}, w->binary.string(), &report);
    EXPECT_EQ(got, want);
    EXPECT_EQ(deepest_span(got), 300U);
    const auto& in = report["inputs"][0];
    EXPECT_EQ(in["problem_count"], 0) << in.dump(2);
    EXPECT_EQ(e2e::statistic_value(in["statistics"], "xray_calls_deeper_than_limit"),
              std::optional<std::uint64_t>(0))
        << in.dump(2);
}

// Past the bound that guards against hostile logs (thousands of levels), calls are left out of
// the capture, and the report says so: one problem with their count, and exit 3 (the capture
// lacks them).
TEST(XrayConvert, CallsPastTheDepthBoundAreReportedWithTheirCount) {
    if (clangxx().empty()) GTEST_SKIP() << "needs clang-14";
    auto w = workload(false);
    ASSERT_TRUE(w);
    constexpr std::size_t kMax = collectors::xray::SpanMapper::kMaxDepth;
    // The worker at depth 0, deep(N) .. deep(1) at depths 1..N, and the leaf deep(1) tail-calls
    // at depth N: the calls at depths >= kMax are N - kMax + 1 deep() calls and the leaf.
    constexpr std::size_t kPast = 50;
    constexpr std::size_t kN = kMax + kPast - 2;
    std::string error;
    const auto log = run_workload(*w, "e2e-too-deep", "xray-fdr", 1, 1,
                                  "buffer_size=1048576:buffer_max=100:func_duration_threshold_us=0",
                                  "d" + std::to_string(kN), &error);
    ASSERT_FALSE(log.empty()) << error;
    nlohmann::json report;
    const auto got = convert_and_read({log.string()}, w->binary.string(), &report, 3);
    EXPECT_EQ(deepest_span(got), kMax - 1);
    const auto& in = report["inputs"][0];
    EXPECT_TRUE(in["complete"].get<bool>());
    EXPECT_EQ(e2e::statistic_value(in["statistics"], "xray_calls_deeper_than_limit"),
              std::optional<std::uint64_t>(kPast))
        << in.dump(2);
    EXPECT_EQ(in["records"]["function-enter"]["skipped"], kPast) << in.dump(2);
    ASSERT_EQ(in["problem_count"], 1) << in.dump(2);
    EXPECT_EQ(in["problems"][0]["kind"], "limit") << in.dump(2);
    EXPECT_NE(in["problems"][0]["message"].get<std::string>().find(
                  std::to_string(kPast) + " calls nested deeper than " + std::to_string(kMax) +
                  " levels are not shown (the deepest nesting: " + std::to_string(kN + 1)),
              std::string::npos)
        << in.dump(2);
}

TEST(XrayConvert, ABinaryWhoseMapLacksTheLogsFunctionsIsReported) {
    // The sample binary's map numbers a handful of functions; a log of another program calls
    // function 999: the calls convert (named fn#999), and the report says --binary is wrong
    // (exit 3: names from a wrong binary may be wrong for the other calls too).
    const ScratchDir dir("xray-other-binary");
    FdrBuilder b(5);
    b.begin_buffer(7, 70, 0, 1000).enter(999, 0).exit(999, 10).enter(999, 5).exit(999, 10);
    b.end_buffer();
    const auto log = dir.path / "other.xray";
    write_bytes(log, b.bytes());
    nlohmann::json report;
    const auto spans =
        convert_and_read({log.string()}, testdata("elf64-sample-o2.bin").string(), &report, 3);
    EXPECT_EQ(spans.at(7), (std::vector<std::string>{"open depth 0 fn#999", "close depth 0",
                                                     "open depth 0 fn#999", "close depth 0"}));
    const auto& in = report["inputs"][0];
    EXPECT_TRUE(in["complete"].get<bool>());
    ASSERT_EQ(in["problem_count"], 1) << in;
    const std::string message = in["problems"][0]["message"];
    EXPECT_NE(message.find("2 calls of functions the instrumentation map of"), std::string::npos)
        << message;
    EXPECT_NE(message.find("the first: id 999"), std::string::npos) << message;

    // The right binary (or none) reports nothing.
    nlohmann::json plain;
    convert_and_read({log.string()}, "", &plain);
    EXPECT_EQ(plain["inputs"][0]["problem_count"], 0);
}

TEST(XrayConvert, CutLogKeepsItsDataAndExitsThree) {
    auto bytes = read_bytes(testdata("fdr-log-version-3.xray"));
    bytes.resize(bytes.size() - 12);
    const ScratchDir dir("xray-cut");
    const auto cut = dir.path / "cut.xray";
    write_bytes(cut, bytes);
    nlohmann::json report;
    const auto spans = convert_and_read({cut.string()}, "", &report, 3);
    const auto& in = report["inputs"][0];
    EXPECT_FALSE(in["complete"].get<bool>());
    EXPECT_EQ(in["stopped"]["record"], "BufferExtents");
    EXPECT_TRUE(in["stopped"].contains("offset"));
    ASSERT_EQ(spans.size(), 1U);
    EXPECT_GE(spans.begin()->second.size(), 4U);  // the calls before the cut
}

// Issue 27: 44 of 50 cuts of LLVM's fdr-log-arg1 converted with exit 0 and "complete": true
// (a version 1 log shorter than its header's buffer_size was read as if whole). Every cut of a
// log LLVM wrote that loses bytes is reported: exit 3, "complete": false, where reading stopped
// named (offset, record kind), and the capture of what came before it is valid. These logs are
// one buffer each, so every cut past the header loses bytes. The uncut logs convert clean.
// Each cut runs the binary once. A sanitizer build starts it slowly enough that every third
// byte would outrun the test's time limit; every seventh still cuts inside every record kind.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kCutStep = 7;
#else
constexpr std::size_t kCutStep = 3;
#endif

TEST(XrayConvert, EveryCutOfAnLlvmLogExitsThreeWithAValidCapture) {
    const ScratchDir dir("xray-cuts");
    const auto cut = dir.path / "cut.xray";
    for (const char* name : {"fdr-log-arg1.xray", "fdr-log-arg1-version-3.xray"}) {
        const auto bytes = read_bytes(testdata(name));
        nlohmann::json whole;
        convert_and_read({testdata(name).string()}, "", &whole, 0);
        EXPECT_TRUE(whole["complete"].get<bool>()) << name;
        EXPECT_EQ(whole["problem_count"], 0) << name;
        for (std::size_t n = 33; n < bytes.size(); n += kCutStep) {
            write_bytes(cut, {bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)});
            nlohmann::json report;
            convert_and_read({cut.string()}, "", &report, 3);
            const auto& in = report["inputs"][0];
            EXPECT_FALSE(report["complete"].get<bool>()) << name << " cut at " << n;
            ASSERT_TRUE(in.contains("stopped")) << name << " cut at " << n << ": " << in.dump(2);
            EXPECT_TRUE(in["stopped"].contains("offset")) << in.dump(2);
            EXPECT_TRUE(in["stopped"].contains("record")) << in.dump(2);
        }
    }
    // The file issue 27 found: fdr-log-arg1 cut at byte 172 of 288, which lost only the junk
    // after the buffer's EndOfBuffer record. Its calls are all there, but the file is not.
    nlohmann::json report;
    const auto spans =
        convert_and_read({(std::filesystem::path(apcgate::test_paths::testdata_dir()) / "hostile" /
                           "xray_trunc_at172_exit0.xray")
                              .string()},
                         "", &report, 3);
    EXPECT_FALSE(report["complete"].get<bool>());
    const auto& stop = report["inputs"][0]["stopped"];
    EXPECT_EQ(stop["record"], "NewBuffer") << stop.dump();
    EXPECT_EQ(stop["offset"], 32) << stop.dump();
    EXPECT_NE(stop["message"].get<std::string>().find("cut short: 140 of 256 bytes"),
              std::string::npos)
        << stop.dump();
    ASSERT_EQ(spans.size(), 1U);
    EXPECT_EQ(spans.begin()->second.size(), 2U);  // the one call, opened and closed
}

// Issue 27: a flipped byte made the NewCPUId of LLVM's fdr-log-arg1 name CPU 18,481, and the
// capture declared 18,482 cores, with exit 0 and no problem. Now the field is a problem (exit
// 3), the capture declares the cores the log really names, and it is valid.
TEST(XrayConvert, AFlippedCpuIsAProblemAndNoCore) {
    nlohmann::json report;
    nlohmann::json inspected;
    convert_and_read({(std::filesystem::path(apcgate::test_paths::testdata_dir()) / "hostile" /
                       "xray_flip02_core18481.xray")
                          .string()},
                     "", &report, 3, &inspected);
    EXPECT_LT(inspected["target"]["cores"].get<int>(), 256) << inspected["target"].dump();
    bool named = false;
    for (const auto& p : report["inputs"][0]["problems"]) {
        if (p.value("record", "") == "NewCPUId" && p.value("field", "") == "cpu" &&
            p.value("offset", 0) == 64)
            named = true;
    }
    EXPECT_TRUE(named) << report["inputs"][0].dump(2);
}

TEST(XrayConvert, ForeignFileIsAClearError) {
    const ScratchDir dir("xray-foreign");
    const auto junk = dir.path / "junk.xray";
    write_bytes(junk, std::vector<std::uint8_t>(100, 0x7f));
    const auto [rc, output] = run_apcgate(
        {"convert", junk.string(), "-o", (dir.path / "o.apc").string(), "--format", "xray"});
    EXPECT_EQ(rc, 3) << output;
    EXPECT_NE(output.find("offset 0 (0x0): record 'FileHeader', field 'version'"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("not an XRay log"), std::string::npos) << output;
    const auto [rc2, output2] =
        run_apcgate({"convert", junk.string(), "-o", (dir.path / "p.apc").string()});
    EXPECT_NE(rc2, 0);
    EXPECT_NE(output2.find("unknown format"), std::string::npos) << output2;
    const auto [rc3, output3] =
        run_apcgate({"convert", testdata("naive-log-simple.xray").string(), "-o",
                     (dir.path / "q.apc").string(), "--binary", junk.string()});
    EXPECT_NE(rc3, 0);
    EXPECT_NE(output3.find("not an ELF file"), std::string::npos) << output3;
}

class XrayServe : public e2e::ServeTest {
  protected:
    // Two logs of the same program (an FDR and a basic-mode run, minutes apart) and the binary.
    void SetUp() override {
        start({"--source", "xray:" + testdata("fdr-log-arg1-version-3.xray").string(), "--source",
               "xray:" + testdata("basic-log-arg1-version-3.xray").string(), "--binary",
               testdata("elf64-sample-o2.bin").string()});
    }
};

TEST_F(XrayServe, StreamsTheLogsAtCaptureStartAndEndsByItself) {
    e2e::HostClient c = client();
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured) << captured_xml->body;
    std::set<std::string> rates;
    for (const auto& counter : captured->counters)
        if (counter.type.rfind("XRay_calls_", 0) == 0) rates.insert(counter.type);
    EXPECT_EQ(rates, (std::set<std::string>{"XRay_calls_2590_2590", "XRay_calls_2631_2631"}))
        << captured_xml->body;
    ASSERT_TRUE(c.send_command(e2e::kApcStart));
    const e2e::StreamResult r = e2e::read_stream(c, std::chrono::seconds(20));
    EXPECT_TRUE(r.end_of_sequence);
    const e2e::CheckedCapture checked = e2e::check_capture(r.frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    EXPECT_GT(checked.values_per_key.size(), 0U);
    const auto content = rebuild(checked.frames);
    ASSERT_TRUE(content.error.empty()) << content.error;
    const auto spans = spans_of(content.events);
    // Both logs, named from the binary's map: main calls foo() and bar(67) in each.
    const std::vector<std::string> want{"open depth 0 main",       "close depth 0",
                                        "open depth 0 foo()",      "close depth 0",
                                        "open depth 0 bar() [67]", "close depth 0"};
    ASSERT_EQ(spans.size(), 2U);
    EXPECT_EQ(spans.at(2631), want);
    EXPECT_EQ(spans.at(2590), want);
}

// `serve --source` reads its inputs afresh at every capture: a log rewritten between captures (a
// new run of the program, copied over the old log) is placed by its own times, its first call at
// the capture's start, not 300 s after the first log's zero or before it.
class XrayServeRewritten : public e2e::ServeTest {
  protected:
    void SetUp() override {
        log_ = dir_.path / "log.xray";
        write_bytes(log_, log_at(kFirstTsc));
        start({"--source", "xray:" + log_.string()});
    }
    // One call of function 1 on thread 7 at `tsc` (1 GHz: ticks are ns).
    static std::vector<std::uint8_t> log_at(std::uint64_t tsc) {
        FdrBuilder b(5);
        b.begin_buffer(7, 70, 0, tsc).enter(1, 0).exit(1, 500).end_buffer();
        return b.bytes();
    }
    // Rewrites the log as a writer that replaces files does (a new file under the same name).
    void rewrite(std::uint64_t tsc) {
        const auto fresh = dir_.path / "log.xray.new";
        write_bytes(fresh, log_at(tsc));
        std::filesystem::rename(fresh, log_);
    }
    // The times of the capture's span annotations (the call's entry and exit).
    std::vector<model::Nanos> call_times() {
        const e2e::CheckedCapture checked = capture_to_end(std::chrono::seconds(20));
        const auto content = rebuild(checked.frames);
        EXPECT_TRUE(content.error.empty()) << content.error;
        std::vector<model::Nanos> times;
        for (const auto& e : content.events) {
            const auto* a = std::get_if<model::Annotation>(&e);
            const auto* s = a ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
            if (s != nullptr && a->tid == 7 && (s->text == "fn#1" || s->text.empty()))
                times.push_back(a->ts);
        }
        return times;
    }

    static constexpr std::uint64_t kFirstTsc = 600'000'000'000;
    const ScratchDir dir_{"xray-rewrite"};
    std::filesystem::path log_;
};

TEST_F(XrayServeRewritten, ALogRewrittenBetweenCapturesStartsAtItsCapturesStart) {
    const std::vector<model::Nanos> want{0, 500};
    EXPECT_EQ(call_times(), want);
    rewrite(kFirstTsc + 300'000'000'000);  // the next run, 300 s later
    EXPECT_EQ(call_times(), want);
    rewrite(kFirstTsc - 300'000'000'000);  // a run before it (a machine rebooted)
    EXPECT_EQ(call_times(), want);
}

// A log whose capture (about 75 MB) is larger than the backlog the daemon lets a client leave
// unread (64 MiB): a client that reads nothing for a while, then everything, gets the whole
// capture, equal to what `convert` makes of the log. The daemon reads the log only as fast as
// the client takes the frames; producing it all meanwhile would have cost the client its
// connection and the daemon the memory. (Under ASan, which makes it many times slower, a sixth
// of the log: the pausing and resuming paths are the same.)
#if defined(__SANITIZE_ADDRESS__)
constexpr int kLargeIterations = 3000;
#else
constexpr int kLargeIterations = 18000;
#endif

// A log of that size from the runtime, with big buffers as a real run has them (the tests run
// in processes of their own, so each writes its own).
std::filesystem::path large_log(const Workload& w, const std::string& name, std::string* error) {
    return run_workload(w, name, "xray-fdr", 4, kLargeIterations,
                        "buffer_size=65536:buffer_max=1200:func_duration_threshold_us=0", "c",
                        error);
}

class XrayServeLarge : public e2e::ServeTest {
  protected:
    void SetUp() override {
        if (clangxx().empty()) GTEST_SKIP() << "needs clang-14 and its XRay runtime";
        auto w = workload(false);
        ASSERT_TRUE(w);
        std::string error;
        log_ = large_log(*w, "e2e-large", &error);
        ASSERT_FALSE(log_.empty()) << error;
        binary_ = w->binary;
        start({"--source", "xray:" + log_.string(), "--binary", binary_.string()});
    }
    std::filesystem::path log_;
    std::filesystem::path binary_;
};

TEST_F(XrayServeLarge, AClientThatPausesGetsTheWholeCaptureAndIsNotDropped) {
    nlohmann::json report;
    const Spans want = convert_and_read({log_.string()}, binary_.string(), &report);
    std::size_t annotations = 0;
    for (const auto& [tid, spans] : want) annotations += spans.size();
    ASSERT_GT(annotations, 100'000U);

    e2e::HostClient c = client();
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured) << captured_xml->body;
    const long rss_before = daemon_->rss_kib();
    ASSERT_TRUE(c.send_command(e2e::kApcStart));
    std::this_thread::sleep_for(std::chrono::seconds(3));  // reads nothing meanwhile
    const long rss_paused = daemon_->rss_kib();
    const e2e::StreamResult r = e2e::read_stream(c, std::chrono::seconds(300));
    ASSERT_TRUE(r.end_of_sequence) << daemon_->log();
    std::uint64_t bytes = 0;
    for (const auto& f : r.frames) bytes += f.size();
#if defined(__SANITIZE_ADDRESS__)
    (void)rss_before;  // ASan's quarantine holds freed memory back: RSS says nothing there
    (void)rss_paused;
#else
    EXPECT_GT(bytes, 64U << 20);
    // The mapped log, the decoder's batches and at most 8 MiB unsent, not the capture so far.
    const auto log_kib = static_cast<long>(std::filesystem::file_size(log_) / 1024);
    EXPECT_LT(rss_paused - rss_before, log_kib + 40L * 1024)
        << "RSS " << rss_before << " -> " << rss_paused << " KiB while paused";
#endif
    const e2e::CheckedCapture checked = e2e::check_capture(r.frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    const auto content = rebuild(checked.frames);
    ASSERT_TRUE(content.error.empty()) << content.error;
    EXPECT_EQ(spans_of(content.events), want);
}

// Ctrl-C on a large conversion: reading stops, the spans still open are closed, the capture is
// written and valid, the report says the inputs were not read to the end, and the exit code
// is 130. (A conversion that ends before the signal lands is tried again.)
TEST(XrayConvert, InterruptedConversionWritesAValidCaptureOfWhatWasRead) {
    if (clangxx().empty()) GTEST_SKIP() << "needs clang-14 and its XRay runtime";
    auto w = workload(false);
    ASSERT_TRUE(w);
    std::string error;
    const auto log = large_log(*w, "e2e-interrupt", &error);
    ASSERT_FALSE(log.empty()) << error;
    const ScratchDir dir("xray-interrupt");
    const auto out = dir.path / "out.apc";
    for (int attempt = 0; attempt < 5; ++attempt) {
        std::filesystem::remove_all(out);
        e2e::DaemonProcess convert({"convert", log.string(), "--binary", w->binary.string(), "-o",
                                    out.string(), "--json"});
        // The data file exists once the conversion has begun (its handler is in place by then).
        while (!std::filesystem::exists(out / "0000000000") && convert.running())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        convert.signal(SIGINT);
        const auto rc = convert.wait(std::chrono::seconds(120));
        ASSERT_TRUE(rc) << convert.log();
        if (*rc == 0) continue;
        ASSERT_EQ(*rc, 130) << convert.log();
        const auto report = json_of(convert.log());
        ASSERT_TRUE(report.is_object()) << "killed, not stopped: " << convert.log();
        EXPECT_EQ(report.value("interrupted", ""), "SIGINT");
        EXPECT_FALSE(report.value("complete", true));
        ASSERT_EQ(report["inputs"].size(), 1U);
        EXPECT_LT(report["inputs"][0]["bytes_read"].get<std::uint64_t>(),
                  report["inputs"][0]["bytes"].get<std::uint64_t>());
        const auto [irc, inspected] = run_apcgate({"inspect", out.string(), "--json"});
        EXPECT_EQ(irc, 0) << inspected;
        EXPECT_TRUE(json_of(inspected).value("valid", false)) << inspected;
        const auto content = read_capture(out.string());
        ASSERT_TRUE(content.error.empty()) << content.error;
        for (const auto& [tid, spans] : spans_of(content.events)) {
            const auto opens = std::count_if(spans.begin(), spans.end(), [](const std::string& x) {
                return x.rfind("open", 0) == 0;
            });
            EXPECT_EQ(opens * 2, static_cast<std::ptrdiff_t>(spans.size())) << "tid " << tid;
        }
        return;
    }
    FAIL() << "every conversion ended before the signal reached it";
}

}  // namespace
}  // namespace apcgate::xray_test
