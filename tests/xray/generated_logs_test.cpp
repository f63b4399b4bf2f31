// Logs written during the test by clang-14's XRay runtime (FDR v5 and basic mode v3): threads,
// recursion, logged arguments, custom and typed events, tail calls, and buffers small enough
// to make hundreds of blocks. Per thread, the reader's sequence equals llvm-xray's, and the
// names from the binary equal llvm-xray -symbolize's.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "collectors/xray/function_names.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "workload_logs.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

std::size_t count_kind(const PerThread& t, const std::string& kind) {
    std::size_t n = 0;
    for (const auto& [key, recs] : t)
        n += static_cast<std::size_t>(
            std::count_if(recs.begin(), recs.end(), [&](const Rec& r) { return r.kind == kind; }));
    return n;
}

std::size_t max_depth(const PerThread& t) {
    std::size_t deepest = 0;
    for (const auto& [key, recs] : t) {
        std::size_t depth = 0;
        for (const auto& r : recs) {
            if (r.kind.rfind("function-enter", 0) == 0) deepest = std::max(deepest, ++depth);
            if (r.kind == "function-exit" || r.kind == "function-tail-exit")
                depth -= depth > 0 ? 1 : 0;
        }
    }
    return deepest;
}

std::string problems(const Decoded& d) {
    std::string s;
    for (const auto& p : d.report->problems()) s += p.to_string() + "\n";
    return s;
}

class GeneratedLogs : public ::testing::Test {
  protected:
    void SetUp() override {
        if (llvm_xray().empty() || clangxx().empty())
            GTEST_SKIP() << "needs clang-14, libclang-rt-14-dev and llvm-14";
    }

    // Runs the workload, decodes its log both ways and compares them thread by thread.
    void compare(bool typed, const std::string& name, const std::string& mode, int threads,
                 int iterations, const std::string& options, const std::string& features) {
        auto w = workload(typed);
        ASSERT_TRUE(w) << "cannot build the workload with " << clangxx();
        std::string error;
        log_ = run_workload(*w, name, mode, threads, iterations, options, features, &error);
        ASSERT_FALSE(log_.empty()) << error;
        bytes_ = read_bytes(log_);
        mine_ = decode(bytes_, name);
        ASSERT_TRUE(mine_.opened) << mine_.error;
        // llvm-xray 14 cannot load the map of a binary with typed-event sleds: ids only then.
        ref_ = llvm_decode(log_, typed ? std::filesystem::path() : w->binary, &error);
        ASSERT_TRUE(ref_) << error;
        auto a = by_tid(mine_.threads);
        auto b = by_tid(ref_->threads);
        sort_by_tsc(a);
        sort_by_tsc(b);
        expect_same_threads(a, b, name);
        EXPECT_EQ(mine_.records, ref_->records);
        binary_ = w->binary;
    }

    std::filesystem::path log_;
    std::filesystem::path binary_;
    std::vector<std::uint8_t> bytes_;
    Decoded mine_;
    std::optional<LlvmTrace> ref_;
};

TEST_F(GeneratedLogs, FdrThreadsRecursionArgumentsCustomEventsAndTailCalls) {
    compare(false, "fdr", "xray-fdr", 4, 30,
            "buffer_size=16384:buffer_max=1000:func_duration_threshold_us=0", "c");
    EXPECT_EQ(mine_.report->problem_count(), 0U) << problems(mine_);
    EXPECT_TRUE(mine_.report->complete());
    EXPECT_EQ(ref_->version, 5);
    EXPECT_GE(mine_.threads.size(), 4U);  // the workers (and main, when it logged)
    EXPECT_GT(count_kind(mine_.threads, "function-enter-arg"), 0U);
    EXPECT_GT(count_kind(mine_.threads, "custom-event"), 0U);
    EXPECT_GT(count_kind(mine_.threads, "function-tail-exit"), 0U);
    EXPECT_GE(max_depth(mine_.threads), 5U);  // area -> fib -> fib -> fib -> leaf

    // Every function id names the same function as llvm-xray -symbolize (demangled).
    auto names = collectors::xray::FunctionNames::load(binary_);
    ASSERT_TRUE(names) << names.error().to_string();
    std::size_t named = 0;
    bool saw_method = false;
    for (const auto& [key, recs] : ref_->threads) {
        for (const auto& r : recs) {
            if (r.kind.rfind("function", 0) != 0) continue;
            EXPECT_EQ(names->name(r.function), r.name) << to_string(r);
            saw_method = saw_method || r.name == "shapes::Square::area(int)";
            ++named;
        }
    }
    EXPECT_GT(named, 100U);
    EXPECT_TRUE(saw_method);
}

TEST_F(GeneratedLogs, TinyFdrBuffersMakeManyBlocks) {
    compare(false, "fdr-tiny", "xray-fdr", 3, 20,
            "buffer_size=256:buffer_max=100000:func_duration_threshold_us=0", "c");
    EXPECT_EQ(mine_.report->problem_count(), 0U) << problems(mine_);
    collectors::ingest::IngestReport report("xray", "tiny");
    auto reader = collectors::xray::XrayReader::open(bytes_, "tiny", report);
    ASSERT_TRUE(reader);
    EXPECT_GT((*reader)->index().blocks.size(), 100U);
}

TEST_F(GeneratedLogs, BasicModeEqualsLlvmXray) {
    compare(false, "basic", "xray-basic", 3, 20, "func_duration_threshold_us=0", "");
    EXPECT_EQ(mine_.report->problem_count(), 0U) << problems(mine_);
    EXPECT_EQ(ref_->type, 0);
    EXPECT_EQ(ref_->version, 3);
    EXPECT_GT(count_kind(mine_.threads, "function-enter-arg"), 0U);
    EXPECT_GE(mine_.threads.size(), 3U);
}

TEST_F(GeneratedLogs, TypedEventsSurviveLlvm14ShortBuffers) {
    auto w = workload(true);
    ASSERT_TRUE(w);
    std::string error;
    const auto log = run_workload(*w, "typed", "xray-fdr", 3, 30,
                                  "buffer_size=256:buffer_max=100000:func_duration_threshold_us=0",
                                  "ct", &error);
    ASSERT_FALSE(log.empty()) << error;
    const auto bytes = read_bytes(log);
    std::vector<std::uint8_t> trimmed;
    const std::size_t cut = trim_partial_records(bytes, trimmed);
    EXPECT_GT(cut, 0U) << "LLVM 14's runtime wrote no short buffer this time";
    const auto trimmed_path = log.parent_path() / "trimmed.xray";
    write_bytes(trimmed_path, trimmed);
    auto ref = llvm_decode(trimmed_path, {}, &error);
    ASSERT_TRUE(ref) << error;

    const Decoded mine = decode(bytes, "typed");
    ASSERT_TRUE(mine.opened);
    EXPECT_TRUE(mine.report->complete());
    // The producer's quirk, not damage: no problem, each cut buffer counted as
    // xray_short_buffers.
    EXPECT_EQ(mine.report->problem_count(), 0U) << problems(mine);
    EXPECT_EQ(statistic(*mine.report, collectors::xray::XrayStat::ShortBuffers), cut);
    auto a = by_tid(mine.threads);
    auto b = by_tid(ref->threads);
    sort_by_tsc(a);
    sort_by_tsc(b);
    expect_same_threads(a, b, "typed");
    EXPECT_GT(count_kind(mine.threads, "typed-event"), 0U);
    for (const auto& [key, recs] : mine.threads) {
        for (const auto& r : recs) {
            if (r.kind == "typed-event") {
                EXPECT_EQ(r.data, "typed\x01payload");
            }
        }
    }
}

// Every cut of a real log that loses bytes stops reading with a problem, however LLVM 14's
// short buffers (above) end: the cut is told from them by where the file ends, not by how a
// buffer does. A cut where a buffer starts leaves a shorter log of whole buffers, which nothing
// tells from a log that was written so: read whole.
TEST_F(GeneratedLogs, EveryCutThatLosesBytesSaysSo) {
    auto w = workload(true);
    ASSERT_TRUE(w);
    std::string error;
    const auto log = run_workload(*w, "typed-cuts", "xray-fdr", 2, 10,
                                  "buffer_size=256:buffer_max=100000:func_duration_threshold_us=0",
                                  "ct", &error);
    ASSERT_FALSE(log.empty()) << error;
    const auto bytes = read_bytes(log);
    const Decoded whole = decode(bytes, "whole");
    ASSERT_TRUE(whole.opened);
    EXPECT_TRUE(whole.report->complete());
    EXPECT_EQ(whole.report->problem_count(), 0U) << problems(whole);
    EXPECT_GT(statistic(*whole.report, collectors::xray::XrayStat::ShortBuffers), 0U);
    // Where each buffer starts (its BufferExtents), from the extents chain.
    std::set<std::size_t> starts;
    for (std::size_t pos = 32; pos + 16 <= bytes.size();) {
        starts.insert(pos);
        std::uint64_t size = 0;
        for (int i = 7; i >= 0; --i)
            size = (size << 8) | bytes[pos + 1 + static_cast<std::size_t>(i)];
        pos += 16 + size;
    }
    ASSERT_GT(starts.size(), 20U);
    std::vector<std::size_t> cuts;
    for (std::size_t n = 33; n < bytes.size(); n += std::max<std::size_t>(1, bytes.size() / 400))
        cuts.push_back(n);
    for (const std::size_t start : starts)
        for (const std::size_t n : {start - 1, start, start + 1, start + 8, start + 16, start + 17})
            if (n > 32 && n < bytes.size()) cuts.push_back(n);
    std::size_t stopped = 0;
    for (const std::size_t n : cuts) {
        const Decoded d =
            decode({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)}, "cut");
        ASSERT_TRUE(d.opened) << n;
        if (starts.count(n) != 0) {
            EXPECT_TRUE(d.report->complete()) << "cut at a buffer start " << n;
            EXPECT_EQ(d.report->problem_count(), 0U) << n << ": " << problems(d);
            continue;
        }
        ASSERT_FALSE(d.report->complete()) << "cut at " << n << " of " << bytes.size();
        const Error& stop = *d.report->stop_reason();
        EXPECT_EQ(stop.record, "BufferExtents") << stop.to_string();
        EXPECT_TRUE(stop.offset.has_value());
        ++stopped;
    }
    EXPECT_GT(stopped, 400U);
}

}  // namespace
}  // namespace apcgate::xray_test
