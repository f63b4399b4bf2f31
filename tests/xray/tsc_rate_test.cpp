// The TSC rate an FDR log's clock stamps measure, and when it replaces the header's cycle
// frequency: a header of 0, or one more than 1 % off (LLVM's x86-64 runtime writes cpufreq's
// cpuinfo_max_freq when the kernel has no tsc_freq_khz); never on a span too short to tell.
#include "collectors/xray/tsc_rate.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "collectors/xray/log_index.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "fdr_builder.hpp"

namespace apcgate::xray_test {
namespace {

using collectors::xray::choose_tsc_rate;
using collectors::xray::measured_tsc_rate;
using collectors::xray::MeasuredRate;
using collectors::xray::WallStamp;

// Stamps of a TSC at `hz` every `step_ns` from monotonic time 5 s, each rounded down to the
// microsecond as the runtime writes it.
std::vector<WallStamp> stamps(std::uint64_t hz, std::int64_t step_ns, int n) {
    std::vector<WallStamp> out;
    for (int i = 0; i < n; ++i) {
        const std::int64_t ns = 5'000'000'000 + i * step_ns;
        const auto tsc = static_cast<std::uint64_t>(static_cast<long double>(ns) *
                                                    static_cast<long double>(hz) / 1e9L);
        out.push_back(WallStamp{tsc, ns / 1000 * 1000});
    }
    return out;
}

TEST(TscRate, StampsOverARunMeasureTheRateToAFewPartsPerMillion) {
    const auto s = stamps(2'900'000'123, 3'000'000, 200);  // 0.6 s
    const auto rate = measured_tsc_rate(s, {});
    ASSERT_TRUE(rate);
    EXPECT_NEAR(static_cast<double>(rate->hz), 2'900'000'123.0, 2'900'000'123.0 * 5e-6);
    EXPECT_GE(rate->span_ns, 590'000'000);
}

TEST(TscRate, OddStampsDoNotMoveTheMedian) {
    auto s = stamps(1'800'000'000, 5'000'000, 100);
    s[3].monotonic_ns += 400'000'000;  // stamps the index took as sane but wrong
    s[97].monotonic_ns -= 900'000'000;
    s[50].tsc *= 3;
    const auto rate = measured_tsc_rate(s, {});
    ASSERT_TRUE(rate);
    EXPECT_NEAR(static_cast<double>(rate->hz), 1.8e9, 1.8e9 * 1e-4);
}

TEST(TscRate, TooShortASpanOrTooFewStampsMeasureNothing) {
    EXPECT_FALSE(measured_tsc_rate(stamps(2'000'000'000, 1'000'000, 15), {}));  // 14 ms
    EXPECT_FALSE(measured_tsc_rate(stamps(2'000'000'000, 1'000'000, 1), {}));
    EXPECT_FALSE(measured_tsc_rate({}, {}));
    // The late ring alone, or with the early stamps, spans the run.
    const auto s = stamps(2'000'000'000, 10'000'000, 10);
    const std::vector<WallStamp> early(s.begin(), s.begin() + 2);
    const std::vector<WallStamp> late(s.end() - 2, s.end());
    EXPECT_TRUE(measured_tsc_rate(early, late));
    // Clocks that cannot be (monotonic time going back over the run) measure nothing.
    std::vector<WallStamp> backwards = s;
    for (auto& w : backwards) w.monotonic_ns = -w.monotonic_ns;
    EXPECT_FALSE(measured_tsc_rate(backwards, {}));
}

TEST(TscRate, TheHeaderStaysUnlessItIsMissingOrOffByMoreThanOnePercent) {
    const MeasuredRate m{3'000'000'000, 800'000'000};
    EXPECT_EQ(choose_tsc_rate(3'020'000'000, m).hz, 3'020'000'000U);  // 0.7 %: the header's
    EXPECT_EQ(choose_tsc_rate(3'020'000'000, m).note, "");
    EXPECT_EQ(choose_tsc_rate(1'000'000'000, std::nullopt).hz, 1'000'000'000U);
    EXPECT_EQ(choose_tsc_rate(0, std::nullopt).hz, 0U);  // the reader's 1 GHz and problem

    const auto missing = choose_tsc_rate(0, m);
    EXPECT_EQ(missing.hz, 3'000'000'000U);
    EXPECT_NE(missing.note.find("the header has no cycle frequency"), std::string::npos);
    EXPECT_NE(missing.note.find("3.0000 GHz over 800 ms"), std::string::npos) << missing.note;

    const auto max_freq = choose_tsc_rate(4'200'000'000, m);  // a turbo clock, not the TSC's
    EXPECT_EQ(max_freq.hz, 3'000'000'000U);
    EXPECT_NE(max_freq.note.find("4.2000 GHz, is +40.0% off"), std::string::npos) << max_freq.note;
    EXPECT_NE(max_freq.note.find("durations are not short"), std::string::npos);
    EXPECT_NE(choose_tsc_rate(2'000'000'000, m).note.find("-33.3% off"), std::string::npos);
}

TEST(TscRate, TheIndexKeepsTheLastStampsOfALongLog) {
    collectors::xray::LogIndex index;
    const auto s = stamps(1'000'000'000, 1'000'000, 5000);
    for (const auto& w : s) index.add_wall_stamp(w);
    EXPECT_EQ(index.wall_stamps.size(), collectors::xray::LogIndex::kMaxWallStamps);
    ASSERT_EQ(index.late_stamps.size(), collectors::xray::LogIndex::kLateWallStamps);
    std::uint64_t latest = 0;
    for (const auto& w : index.late_stamps) latest = std::max(latest, w.tsc);
    EXPECT_EQ(latest, s.back().tsc);
}

TEST(TscRate, TheReaderConvertsWithTheMeasuredRateAndSaysSo) {
    // The header claims 3 GHz; the buffers' stamps show a TSC at 2 GHz: one buffer a second.
    FdrBuilder b(5, wire_endian::Little, collectors::xray::BitOrder::LsbFirst, 3'000'000'000);
    for (int i = 0; i < 4; ++i) {
        b.next_wall_clock(100 + static_cast<std::uint64_t>(i), 0)
            .begin_buffer(1, 9, 0, 2'000'000'000ULL * static_cast<std::uint64_t>(1 + i))
            .enter(1, 0)
            .exit(1, 2'000'000)  // 1 ms at 2 GHz
            .end_buffer();
    }
    const std::vector<std::uint8_t> log = b.bytes();  // the reader reads it in place
    collectors::ingest::IngestReport report("xray", "t");
    auto reader = collectors::xray::XrayReader::open(log, "t", report);
    ASSERT_TRUE(reader);
    ASSERT_EQ(report.notes().size(), 1U);
    EXPECT_NE(report.notes()[0].find("is +50.0% off"), std::string::npos) << report.notes()[0];
    EXPECT_EQ(report.problem_count(), 0U);
    std::vector<model::Nanos> times;
    for (;;) {
        const auto steps = (*reader)->steps(64);
        if (steps.empty()) break;
        for (const auto& m : steps)
            if (m.event != nullptr) times.push_back(m.event->ns);
    }
    ASSERT_GE(times.size(), 8U);
    EXPECT_EQ(times[1] - times[0], 1'000'000);      // the call: 1 ms, not 0.67
    EXPECT_EQ(times[2] - times[0], 1'000'000'000);  // the next buffer: 1 s later
    EXPECT_EQ((*reader)->to_monotonic(), 100'000'000'000 - times[0]);
}

}  // namespace
}  // namespace apcgate::xray_test
