// span_run_pool.hpp: a run given back after encoding lends its buffers to the next run taken on
// the same thread, empty; the pool never holds more than its bounds, and a thread that never
// takes runs keeps nothing.
#include "protocol/model/span_run_pool.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace apcgate::model {
namespace {

// Each test runs on a fresh thread: the pool is per thread, and gtest runs tests on one.
template <typename F>
void on_fresh_thread(F f) {
    std::thread t(f);
    t.join();
}

TEST(SpanRunPool, AGivenRunsBuffersServeTheNextRunEmpty) {
    on_fresh_thread([] {
        SpanRun run = span_run_pool::take(16, 256);
        EXPECT_GE(run.items.capacity(), 16U);
        EXPECT_GE(run.texts.capacity(), 256U);
        run.add(1, 0, 7, 3, "open");
        run.add(2, 0, 7, 3, {});
        run.advance(1);
        const SpanItem* items = run.items.data();
        const char* texts = run.texts.data();
        span_run_pool::give(std::move(run));
        EXPECT_TRUE(run.items.empty());  // NOLINT(bugprone-use-after-move): left empty on purpose
        EXPECT_GT(span_run_pool::kept_bytes(), 0U);

        SpanRun next = span_run_pool::take(16, 256);
        EXPECT_EQ(next.items.data(), items);  // the same buffers
        EXPECT_EQ(next.texts.data(), texts);
        EXPECT_TRUE(next.items.empty());
        EXPECT_TRUE(next.texts.empty());
        EXPECT_EQ(next.first, 0U);
        EXPECT_TRUE(next.empty());
        EXPECT_EQ(span_run_pool::kept_bytes(), 0U);
    });
}

TEST(SpanRunPool, KeepsNoMoreThanItsBounds) {
    on_fresh_thread([] {
        (void)span_run_pool::take(1, 1);  // this thread makes runs
        // A run past the per-run bound is not kept.
        SpanRun big;
        big.texts.reserve(span_run_pool::kMaxRunBytes + 1);
        span_run_pool::give(std::move(big));
        EXPECT_EQ(span_run_pool::kept_bytes(), 0U);
        // Many small ones: kept up to the total bound, no further.
        for (int i = 0; i < 20'000; ++i) {
            SpanRun run;
            run.items.reserve(16);
            run.texts.reserve(256);
            span_run_pool::give(std::move(run));
            ASSERT_LE(span_run_pool::kept_bytes(), span_run_pool::kMaxBytes);
        }
        EXPECT_GT(span_run_pool::kept_bytes(), span_run_pool::kMaxBytes / 2);
    });
}

TEST(SpanRunPool, AThreadThatNeverTakesKeepsNothing) {
    on_fresh_thread([] {
        SpanRun run;
        run.items.reserve(16);
        run.texts.reserve(256);
        span_run_pool::give(std::move(run));
        EXPECT_EQ(span_run_pool::kept_bytes(), 0U);
        SpanRun unbuffered = span_run_pool::take(0, 0);  // nothing to give: a fresh run
        EXPECT_EQ(unbuffered.items.capacity(), 0U);
    });
}

}  // namespace
}  // namespace apcgate::model
