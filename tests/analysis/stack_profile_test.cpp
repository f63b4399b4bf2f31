// CPU samples by function and stack: self and total counts (recursion once), the folded stacks
// flame-graph tools read, and names for frames no symbol covers.
#include "daemon/analysis/stack_profile.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "daemon/analysis/report_output.hpp"

namespace apcgate::daemon::analysis {
namespace {

// Frames innermost first, as Backtrace frames are. The image does not exist, so every frame
// of cookie 5 is named by its offset: "app+0xN".
model::Backtrace sample(std::int32_t pid,
                        const std::vector<std::int64_t>& offsets_innermost_first) {
    model::Backtrace b;
    b.pid = pid;
    b.tid = pid;
    for (const auto o : offsets_innermost_first) b.frames.push_back({5, o});
    return b;
}

const FunctionRow* function(const Report& r, const std::string& name) {
    for (const auto& f : r.functions)
        if (f.name == name) return &f;
    return nullptr;
}

struct Profiled {
    Report report;
    std::string folded;
};

Profiled profile(const std::vector<model::Backtrace>& samples,
                 std::optional<std::int32_t> pid = {}) {
    ImageSymbols symbols(SymbolOptions{{}, "/nonexistent-sysroot", {}});
    symbols.name_cookie(5, "/opt/app");
    StackProfile p(symbols, pid);
    for (const auto& s : samples) p.sample(s);
    Profiled out;
    out.report.samples = samples.size();
    p.fill(out.report);
    std::ostringstream folded;
    write_folded(out.report, folded);
    out.folded = folded.str();
    return out;
}

// Offsets are whatever the capture says, up to the largest 64-bit values: hashing them must not
// overflow (UBSan caught a signed product on a live capture's frames).
TEST(StackProfile, FramesAtTheLargestOffsetsAreCountedLikeAnyOther) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const std::int64_t small = std::numeric_limits<std::int64_t>::min();
    const auto p = profile({sample(1, {big, small}), sample(1, {big, small})});
    std::uint64_t self = 0;
    for (const auto& f : p.report.functions) self += f.self_samples;
    EXPECT_EQ(self, 2U);
    EXPECT_EQ(p.report.functions.size(), 2U);
}

TEST(StackProfile, SelfCountsTheInnermostAndTotalEveryFunctionOnce) {
    // main(0x10) -> f(0x20) -> g(0x30), twice; main -> f -> f (recursion); main alone.
    const auto p = profile({sample(1, {0x30, 0x20, 0x10}), sample(1, {0x30, 0x20, 0x10}),
                            sample(1, {0x20, 0x20, 0x10}), sample(1, {0x10})});
    const Report& r = p.report;
    ASSERT_EQ(r.functions.size(), 3u);
    EXPECT_EQ(r.functions[0].name, "app+0x30");  // most self samples first
    EXPECT_EQ(r.functions[0].self_samples, 2u);
    EXPECT_EQ(r.functions[0].image, "/opt/app");
    EXPECT_EQ(function(r, "app+0x20")->self_samples, 1u);
    EXPECT_EQ(function(r, "app+0x20")->total_samples, 3u);  // recursion counted once
    EXPECT_EQ(function(r, "app+0x10")->self_samples, 1u);
    EXPECT_EQ(function(r, "app+0x10")->total_samples, 4u);
    EXPECT_EQ(p.folded,
              "app+0x10;app+0x20;app+0x30 2\n"
              "app+0x10 1\n"
              "app+0x10;app+0x20;app+0x20 1\n");
}

TEST(StackProfile, KernelAndUnmappedFramesHaveTheirOwnNames) {
    model::Backtrace b;
    b.pid = 3;
    b.frames = {{0, 0x7fff1234}, {-1, 0x42}, {9, 0x10}};  // cookie 9 was never named
    const auto p = profile({b});
    EXPECT_EQ(p.folded, "[unknown];[unknown];[kernel] 1\n");
    EXPECT_EQ(p.report.functions.size(), 2u);
}

TEST(StackProfile, PidFilterKeepsOneProcess) {
    const auto p = profile({sample(1, {0x10}), sample(2, {0x20}), sample(2, {0x20})}, 2);
    ASSERT_EQ(p.report.functions.size(), 1u);
    EXPECT_EQ(p.report.functions[0].name, "app+0x20");
    EXPECT_EQ(p.folded, "app+0x20 2\n");
}

}  // namespace
}  // namespace apcgate::daemon::analysis
