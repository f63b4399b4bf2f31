// The clock of an LTTng-UST trace made during the test: LTTng's "monotonic" clock class relates
// the trace's ns to this machine's CLOCK_MONOTONIC (CtfSource::clock().to_monotonic), which the
// test reads itself around the traced program.
#include <gtest/gtest.h>
#include <time.h>

#include "ctf_run.hpp"
#include "lttng_session.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;

std::int64_t now_ns(clockid_t id) {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

TEST(CtfLttngClock, UstTraceRelatesToThisMachinesMonotonicClock) {
    if (std::string(apcgate::test_paths::ctf_ust_app()).empty())
        GTEST_SKIP() << "ctf_ust_app was not built (liblttng-ust-dev is not installed)";
    if (const auto why = lttng_unavailable(); !why.empty()) GTEST_SKIP() << why;
    const fs::path dir = scratch_dir("ust-clock");
    const std::int64_t mono_before = now_ns(CLOCK_MONOTONIC);
    auto trace = make_ust_trace(dir / "session", {apcgate::test_paths::ctf_ust_app(), "20"},
                                {"vpid", "vtid"});
    const std::int64_t mono_after = now_ns(CLOCK_MONOTONIC);
    // Realtime - monotonic now, read between two monotonic reads.
    const std::int64_t m0 = now_ns(CLOCK_MONOTONIC);
    const std::int64_t real = now_ns(CLOCK_REALTIME);
    const std::int64_t m1 = now_ns(CLOCK_MONOTONIC);
    const std::int64_t realtime_minus_monotonic = real - (m0 + (m1 - m0) / 2);
    ASSERT_TRUE(trace) << trace.error().to_string();

    auto run = run_ctf(trace->dir);
    ASSERT_TRUE(run) << run.error().to_string();
    ASSERT_TRUE((*run)->report().complete()) << (*run)->report().stop_reason()->to_string();
    EXPECT_EQ((*run)->event_counts().at("apcgate_ctf_test:tick"), 40U);
    const auto clock = (*run)->source->clock();
    EXPECT_EQ(clock.domain, "unix-epoch");
    EXPECT_EQ(clock.description, "CTF clock 'monotonic' (LTTng, CLOCK_MONOTONIC)");
    ASSERT_TRUE(clock.to_monotonic) << clock.description;
    EXPECT_NEAR(static_cast<double>(-*clock.to_monotonic),
                static_cast<double>(realtime_minus_monotonic), 1e9);
    // The trace's first event, on CLOCK_MONOTONIC, happened while the test traced the program.
    const std::int64_t first = (*run)->source->time_origin() + *clock.to_monotonic;
    EXPECT_GE(first, mono_before);
    EXPECT_LE(first, mono_after);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace apcgate::ctf_test
