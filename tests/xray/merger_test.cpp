// The time-ordered merge of the reader on hand-built logs whose every event time is known (1 GHz,
// so ns = tsc): the merged steps must be exactly a reference merge of the threads' own
// sequences by (ns, thread index), each thread's end right after its last event. The logs
// cover each way the merger works: up to four threads, five to sixteen (the scan over arrays),
// more than sixteen (the heap, handing over to the scan as threads end), with many equal times
// across threads, threads that end early, and threads long enough to cross batch and chunk
// boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "collectors/xray/xray_reader.hpp"
#include "fdr_builder.hpp"
#include "workload_logs.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

using collectors::xray::CallEvent;
using collectors::xray::XrayReader;

struct Step {
    XrayReader::Step kind;
    std::uint32_t thread;  // reader's thread index
    std::uint32_t function;
    model::Nanos ns;
    bool operator==(const Step&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Step& s) {
    return os << "{" << static_cast<int>(s.kind) << " t" << s.thread << " f" << s.function << " @"
              << s.ns << "}";
}

// One thread's events as written: function id and absolute tsc (= ns).
using Written = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

struct Plan {
    std::map<std::int32_t, Written> by_tid;
    std::vector<std::uint8_t> bytes;
};

// `threads` threads with the given event counts; deltas from 0 to `spread` ticks (0 makes equal
// times within a thread, and with a common start many equal times across threads). Buffers of
// at most 300 records, handed out round-robin as the runtime's queue does.
Plan make_log(const std::vector<std::uint32_t>& counts, std::uint32_t spread, std::uint32_t seed) {
    std::mt19937 rng(seed);
    FdrBuilder b(5);
    Plan plan;
    const auto n = counts.size();
    std::vector<std::uint64_t> tsc(n, 1000);
    std::vector<std::uint32_t> done(n, 0);
    std::uint32_t next_function = 1;
    for (bool any = true; any;) {
        any = false;
        for (std::size_t t = 0; t < n; ++t) {
            if (done[t] >= counts[t]) continue;
            any = true;
            const auto tid = static_cast<std::int32_t>(100 + t);
            b.begin_buffer(tid, 9, 0, tsc[t]);
            const std::uint32_t take = std::min<std::uint32_t>(300, counts[t] - done[t]);
            for (std::uint32_t i = 0; i < take; ++i) {
                const std::uint32_t delta = i == 0 ? 0 : rng() % (spread + 1);
                tsc[t] += delta;
                const std::uint32_t f = next_function++;
                b.enter(f, delta);
                plan.by_tid[tid].emplace_back(f, tsc[t]);
            }
            done[t] += take;
            b.end_buffer();
        }
    }
    plan.bytes = b.bytes();
    return plan;
}

// A log read through: the steps the reader handed out, and the reader (for its index) with the
// report it writes to.
struct Read {
    std::unique_ptr<collectors::ingest::IngestReport> report;
    std::unique_ptr<XrayReader> reader;
    std::vector<Step> steps;
};

// `by_steps`: taken with steps(), a varying number at a time, instead of next().
Read read_merged(const std::vector<std::uint8_t>& bytes, bool by_steps = false) {
    Read out;
    out.report = std::make_unique<collectors::ingest::IngestReport>("xray", "t");
    auto reader = XrayReader::open(bytes, "t", *out.report);
    if (!reader) {
        ADD_FAILURE() << "cannot open the log";
        return out;
    }
    out.reader = std::move(*reader);
    std::uint32_t thread = 0;
    const CallEvent* e = nullptr;
    if (by_steps) {
        constexpr std::size_t kTake[] = {1, 7, 100000, 2, 1000};
        for (std::size_t k = 0;; ++k) {
            const auto steps = out.reader->steps(kTake[k % 5]);
            if (steps.empty()) break;
            EXPECT_LE(steps.size(), kTake[k % 5]);
            for (const auto& m : steps) {
                if (m.step == XrayReader::Step::ThreadEnd) {
                    out.steps.push_back({m.step, m.thread, 0, 0});
                } else {
                    out.steps.push_back({m.step, m.thread, m.event->function, m.event->ns});
                }
            }
        }
        EXPECT_TRUE(out.reader->steps(10).empty());  // done stays done
        EXPECT_EQ(out.report->problem_count(), 0U);
        return out;
    }
    for (XrayReader::Step s; (s = out.reader->next(thread, e)) != XrayReader::Step::Done;) {
        if (s == XrayReader::Step::ThreadEnd) {
            out.steps.push_back({s, thread, 0, 0});
        } else {
            out.steps.push_back({s, thread, e->function, e->ns});
        }
    }
    // Done stays done.
    EXPECT_EQ(out.reader->next(thread, e), XrayReader::Step::Done);
    EXPECT_EQ(out.report->problem_count(), 0U);
    return out;
}

// The merge by definition: the earliest (ns, thread index) head goes next; a thread that has
// given its last event ends before anything else.
std::vector<Step> reference(const XrayReader& r, const Plan& plan) {
    const auto n = static_cast<std::uint32_t>(r.index().threads.size());
    std::vector<const Written*> seq(n);
    for (std::uint32_t t = 0; t < n; ++t) seq[t] = &plan.by_tid.at(r.thread(t).tid);
    std::vector<std::size_t> at(n, 0);
    std::vector<Step> steps;
    for (;;) {
        std::uint32_t best = n;
        for (std::uint32_t t = 0; t < n; ++t) {
            if (at[t] >= seq[t]->size()) continue;
            if (best == n || (*seq[t])[at[t]].second < (*seq[best])[at[best]].second) best = t;
        }
        if (best == n) break;
        const auto& [f, tsc] = (*seq[best])[at[best]++];
        steps.push_back({XrayReader::Step::Event, best, f, static_cast<model::Nanos>(tsc)});
        if (at[best] == seq[best]->size())
            steps.push_back({XrayReader::Step::ThreadEnd, best, 0, 0});
    }
    return steps;
}

void expect_reference_merge(const std::vector<std::uint32_t>& counts, std::uint32_t spread,
                            std::uint32_t seed) {
    const Plan plan = make_log(counts, spread, seed);
    for (const bool by_steps : {false, true}) {
        SCOPED_TRACE(by_steps ? "steps()" : "next()");
        const Read read = read_merged(plan.bytes, by_steps);
        ASSERT_NE(read.reader, nullptr);
        const auto& got = read.steps;
        const auto want = reference(*read.reader, plan);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "step " << i;
    }
}

TEST(XrayMerger, TwoThreadsWithEqualTimesGoByThreadIndex) {
    // Spread 0: every event of both threads at the same time; thread 0 goes first entirely.
    expect_reference_merge({50, 70}, 0, 1);
    expect_reference_merge({3000, 2500}, 1, 2);
}

TEST(XrayMerger, UpToFourThreadsInterleavingEveryEventAcrossBatchesAndChunks) {
    expect_reference_merge({5000, 4000, 3000, 4500}, 3, 3);
    expect_reference_merge({1, 5000, 2, 4000}, 2, 4);  // two threads end almost at once
    expect_reference_merge({7000}, 5, 5);
    expect_reference_merge({2000, 2000, 2000}, 1, 6);
}

TEST(XrayMerger, FiveToSixteenThreadsWithTiesAndEarlyEnds) {
    expect_reference_merge({900, 10, 1500, 1, 700}, 2, 7);
    std::vector<std::uint32_t> sixteen;
    for (std::uint32_t i = 0; i < 16; ++i) sixteen.push_back(100 + 137 * i % 1200);
    expect_reference_merge(sixteen, 1, 8);
    expect_reference_merge(sixteen, 0, 9);
}

TEST(XrayMerger, ManyThreadsUseTheHeapAndHandOverAsThreadsEnd) {
    // 40 threads of different lengths: the heap merges until 16 are left, then the scan (and
    // the four-thread merge at the end) goes on where the heap stopped.
    std::vector<std::uint32_t> counts;
    for (std::uint32_t i = 0; i < 40; ++i) counts.push_back(20 + 97 * i % 1500);
    expect_reference_merge(counts, 2, 10);
    expect_reference_merge(counts, 0, 11);
}

TEST(XrayMerger, ThreadEndComesRightAfterTheThreadsLastEvent) {
    // Thread 0's last event ties with thread 1's first: thread 0 wins the tie, then ends before
    // thread 1's event.
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100).enter(1, 0).enter(2, 10).end_buffer();
    b.begin_buffer(2, 9, 0, 110).enter(3, 0).enter(4, 0).end_buffer();
    const Read read = read_merged(b.bytes());
    const auto& got = read.steps;
    using S = XrayReader::Step;
    const std::vector<Step> want{{S::Event, 0, 1, 100},   {S::Event, 0, 2, 110},
                                 {S::ThreadEnd, 0, 0, 0}, {S::Event, 1, 3, 110},
                                 {S::Event, 1, 4, 110},   {S::ThreadEnd, 1, 0, 0}};
    EXPECT_EQ(got, want);
}

// Logs the runtime writes, with the threads' real interleaving: the merged steps must be the
// reference merge of the threads' own sequences as the reader handed them out (the sequences
// themselves are compared with llvm-xray in generated_logs_test.cpp), for 4 threads (the
// register merge), 7 (the scan) and 20 (the heap, then the scan).
TEST(XrayMerger, RuntimeLogsMergeAsTheReferenceDoes) {
    if (clangxx().empty()) GTEST_SKIP() << "needs clang-14 and libclang-rt-14-dev";
    auto w = workload(false);
    ASSERT_TRUE(w) << "cannot build the workload with " << clangxx();
    for (const int threads : {4, 7, 20}) {
        std::string error;
        const auto log =
            run_workload(*w, "merge" + std::to_string(threads), "xray-fdr", threads, 60,
                         "buffer_size=4096:buffer_max=100000:"
                         "func_duration_threshold_us=0",
                         "c", &error);
        ASSERT_FALSE(log.empty()) << error;
        const auto bytes = read_bytes(log);
        const Read read = read_merged(bytes);
        ASSERT_NE(read.reader, nullptr);
        const auto& got = read.steps;
        const auto n = static_cast<std::uint32_t>(read.reader->index().threads.size());
        ASSERT_GE(n, static_cast<std::uint32_t>(threads));
        std::vector<std::vector<Step>> own(n);
        for (const Step& s : got) {
            if (s.kind == XrayReader::Step::Event) own[s.thread].push_back(s);
        }
        std::vector<std::size_t> at(n, 0);
        std::vector<Step> want;
        for (;;) {
            std::uint32_t best = n;
            for (std::uint32_t t = 0; t < n; ++t) {
                if (at[t] >= own[t].size()) continue;
                if (best == n || own[t][at[t]].ns < own[best][at[best]].ns) best = t;
            }
            if (best == n) break;
            want.push_back(own[best][at[best]++]);
            if (at[best] == own[best].size())
                want.push_back({XrayReader::Step::ThreadEnd, best, 0, 0});
        }
        ASSERT_EQ(got.size(), want.size()) << threads << " threads";
        for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(got[i], want[i]) << threads << " threads, step " << i;
    }
}

}  // namespace
}  // namespace apcgate::xray_test
