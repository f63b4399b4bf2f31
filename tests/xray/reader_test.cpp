// The reader on hand-built logs: every record kind of every version, both byte orders and both
// big-endian bit orders, and the damage real files show (cut buffers, short extents after typed
// events, corrupt buffers, records out of place): each is reported with its offset and kind,
// and everything decodable around it is kept.
#include <gtest/gtest.h>

#include "collectors/xray/log_index.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "fdr_builder.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

using E = wire_endian;
using collectors::xray::XrayStat;

const std::vector<Rec>& only_thread(const Decoded& d) {
    static const std::vector<Rec> kNone;
    return d.threads.size() == 1 ? d.threads.begin()->second : kNone;
}

bool has_problem(const Decoded& d, const std::string& record, std::uint64_t offset,
                 const std::string& text) {
    for (const auto& p : d.report->problems()) {
        if (p.record == record && p.offset == offset &&
            p.to_string().find(text) != std::string::npos)
            return true;
    }
    return false;
}

std::string problems(const Decoded& d) {
    std::string s;
    for (const auto& p : d.report->problems()) s += p.to_string() + "\n";
    return s;
}

// One thread: f1 { f2 [args 7, 8] {} } then custom and typed events, a TSCWrap and a tail exit.
FdrBuilder sample(std::uint16_t version, E endian, BitOrder bits) {
    FdrBuilder b(version, endian, bits, 2'000'000'000, 512);
    b.begin_buffer(42, 7, 3, 1000)
        .enter(1, 10)
        .function(3, 2, 5)
        .argument(7)
        .argument(8)
        .exit(2, 20);
    if (version >= 5) {
        b.custom("hello", 4).typed(9, "t", 1);
    } else {
        b.custom("hello", 1039, 3);
    }
    b.tsc_wrap(9000).function(2, 1, 6);
    if (version == 1) b.end_of_buffer();
    b.end_buffer();
    return b;
}

TEST(XrayReader, EveryVersionByteOrderAndBitOrderDecodesTheSame) {
    for (std::uint16_t v = 1; v <= 5; ++v) {
        const Decoded le = decode(sample(v, E::Little, BitOrder::LsbFirst).bytes());
        ASSERT_TRUE(le.opened) << le.error;
        EXPECT_EQ(le.report->problem_count(), 0U) << problems(le);
        const auto& recs = only_thread(le);
        ASSERT_EQ(recs.size(), v >= 5 ? 6U : 5U) << "version " << v;
        EXPECT_EQ(recs[0], (Rec{"function-enter", 1, "", 1010, 3, {}, ""}));
        EXPECT_EQ(recs[1], (Rec{"function-enter-arg", 2, "", 1015, 3, {7, 8}, ""}));
        EXPECT_EQ(recs[2], (Rec{"function-exit", 2, "", 1035, 3, {}, ""}));
        EXPECT_EQ(recs[3], (Rec{"custom-event", 0, "", 1039, 3, {}, "hello"}));
        if (v >= 5) {
            EXPECT_EQ(recs[4], (Rec{"typed-event", 9, "", 1040, 3, {}, "t"}));
        }
        EXPECT_EQ(recs.back().kind, "function-tail-exit");
        EXPECT_EQ(recs.back().tsc, 9006U);                            // after the TSCWrap
        EXPECT_EQ(le.threads.begin()->first.first, v >= 3 ? 7 : -1);  // pid from v3 on
        for (BitOrder bits : {BitOrder::LsbFirst, BitOrder::MsbFirst}) {
            const Decoded be = decode(sample(v, E::Big, bits).bytes());
            ASSERT_TRUE(be.opened) << be.error;
            EXPECT_EQ(be.report->problem_count(), 0U) << problems(be);
            EXPECT_EQ(be.threads, le.threads) << "version " << v << " big-endian";
        }
    }
}

TEST(XrayReader, WrongHeaderIsAClearErrorAtOffsetZero) {
    std::vector<std::uint8_t> junk(64, 0x42);
    const Decoded d = decode(junk, "junk.bin");
    ASSERT_FALSE(d.opened);
    EXPECT_NE(d.error.find("junk.bin: offset 0 (0x0): record 'FileHeader', field 'version'"),
              std::string::npos)
        << d.error;
    const Decoded short_file = decode(std::vector<std::uint8_t>(10, 1), "short");
    ASSERT_FALSE(short_file.opened);
    EXPECT_NE(short_file.error.find("truncated"), std::string::npos) << short_file.error;
    EXPECT_FALSE(collectors::xray::looks_like_xray(junk));
    EXPECT_TRUE(
        collectors::xray::looks_like_xray(sample(5, E::Little, BitOrder::LsbFirst).bytes()));
    EXPECT_TRUE(collectors::xray::looks_like_xray(sample(1, E::Big, BitOrder::MsbFirst).bytes()));
}

TEST(XrayReader, ShortExtentsAfterTypedEventKeepTheBufferAndResyncOnTheNext) {
    // LLVM 14's runtime counts a buffer 16 bytes short for each typed event in it: the last
    // record is cut. That is the producer's doing, not damage: counted as xray_short_buffers, no
    // problem. The next buffer must still be read.
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100)
        .enter(1, 1)
        .typed(3, "abc", 1)
        .exit(1, 1)
        .enter(2, 1)
        .end_buffer(-4);
    b.begin_buffer(1, 9, 0, 500).exit(2, 1).end_buffer();
    const auto bytes = b.bytes();
    const Decoded d = decode(bytes);
    ASSERT_TRUE(d.opened);
    const auto& recs = only_thread(d);
    ASSERT_EQ(recs.size(), 4U);  // enter, typed, exit | (cut enter) | exit
    EXPECT_EQ(recs[2].kind, "function-exit");
    EXPECT_EQ(recs[3].tsc, 501U);
    EXPECT_TRUE(d.report->complete());
    EXPECT_EQ(d.report->problem_count(), 0U) << problems(d);
    EXPECT_EQ(statistic(*d.report, XrayStat::ShortBuffers), 1U);
    // A statistic, not a record kind: the record counts are the records'.
    EXPECT_FALSE(d.report->kinds().contains("short-buffer"));
}

// A record cut at a buffer's end that LLVM 14's short extents do not explain is damage: in a
// buffer without typed events, or missing more than 16 bytes per typed event, or in the buffer
// the file ends in.
TEST(XrayReader, CutRecordsThatNoTypedEventExplainsAreProblems) {
    const std::uint64_t cut_at = 32 + 16 + 4 * 16 + 8 + 8;  // the second enter's offset
    FdrBuilder plain(5);
    plain.begin_buffer(1, 9, 0, 100).enter(1, 1).exit(1, 1).enter(2, 1).end_buffer(-4);
    plain.begin_buffer(1, 9, 0, 500).exit(2, 1).end_buffer();
    const Decoded p = decode(plain.bytes());
    EXPECT_TRUE(p.report->complete());
    EXPECT_TRUE(has_problem(p, "Function", cut_at, "partial record: 4 of 8 bytes")) << problems(p);
    EXPECT_EQ(statistic(*p.report, XrayStat::ShortBuffers), 0U);

    FdrBuilder too_short(5);
    too_short.begin_buffer(1, 9, 0, 100).enter(1, 1).typed(3, "abc", 1).exit(1, 1);
    too_short.custom(std::string(40, 'x'), 1).end_buffer(-30);  // 30 > 16 payload bytes lost
    too_short.begin_buffer(1, 9, 0, 500).enter(2, 1).end_buffer();
    const Decoded t = decode(too_short.bytes());
    EXPECT_TRUE(has_problem(t, "CustomEvent", 32 + 16 + 4 * 16 + 8 + 16 + 3 + 8,
                            "partial record: its 40-byte payload has 10 bytes"))
        << problems(t);
    EXPECT_EQ(t.report->problem_count(), 1U) << problems(t);
    EXPECT_EQ(statistic(*t.report, XrayStat::ShortBuffers), 0U);

    FdrBuilder last(5);
    last.begin_buffer(1, 9, 0, 100).enter(1, 1).typed(3, "abc", 1).exit(1, 1).enter(2, 1);
    last.end_buffer();
    auto bytes = last.bytes();
    bytes.resize(bytes.size() - 4);  // the file ends inside the buffer
    const Decoded l = decode(bytes);
    EXPECT_FALSE(l.report->complete());
    EXPECT_TRUE(has_problem(l, "Function", bytes.size() - 4, "partial record: 4 of 8 bytes"))
        << problems(l);
    EXPECT_EQ(statistic(*l.report, XrayStat::ShortBuffers), 0U);
}

// LLVM's runtimes keep a CPU in 8 bits: a NewCPUId naming CPU 18,481 (a flipped byte in
// LLVM's fdr-log-arg1) is a corrupt field. It is reported with its offset, kind and field; its
// time base is still used, the thread stays on the CPU it was on, and no core is declared for it.
TEST(XrayReader, CpuNoRuntimeWritesIsABadFieldAndDeclaresNoCore) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 3, 100).enter(1, 1).exit(1, 1).new_cpu(18481, 200);
    b.enter(2, 1).exit(2, 1).end_buffer();
    b.begin_buffer(2, 9, 40000, 300).enter(3, 1).exit(3, 1).end_buffer();
    const Decoded d = decode(b.bytes());
    ASSERT_TRUE(d.opened);
    EXPECT_EQ(d.max_cpu, 3U);
    ASSERT_EQ(d.threads.size(), 2U);
    const auto& first = d.threads.at({9, 1});
    ASSERT_EQ(first.size(), 4U);
    for (const auto& r : first) EXPECT_EQ(r.cpu, 3U) << to_string(r);
    EXPECT_EQ(first[2].tsc, 201U);  // from the bad record's time base
    const auto& second = d.threads.at({9, 2});
    ASSERT_EQ(second.size(), 2U);
    EXPECT_EQ(second[0].cpu, 0U);
    EXPECT_EQ(second[0].tsc, 301U);
    EXPECT_TRUE(d.report->complete());
    ASSERT_EQ(d.report->problem_count(), 2U) << problems(d);
    const std::uint64_t second_buffer = 32 + 16 + 4 * 16 + 16 + 16 + 16;
    EXPECT_TRUE(has_problem(d, "NewCPUId", 32 + 16 + 4 * 16 + 16, "CPU 18481")) << problems(d);
    EXPECT_TRUE(has_problem(d, "NewCPUId", second_buffer + 16 + std::size_t{3} * 16, "CPU 40000"))
        << problems(d);
    for (const auto& p : d.report->problems()) EXPECT_EQ(p.field, "cpu") << p.to_string();
}

TEST(XrayReader, CorruptBufferStartIsSkippedToTheNextBuffer) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100).enter(1, 1).exit(1, 1).end_buffer();
    b.begin_buffer(1, 9, 0, 200).enter(2, 1).exit(2, 1).end_buffer();
    b.begin_buffer(1, 9, 0, 300).enter(3, 1).exit(3, 1).end_buffer();
    auto bytes = b.bytes();
    const std::size_t second = 32 + (16 + 4 * 16 + 16);
    bytes[second] = 0x55;  // not a BufferExtents introducer
    const Decoded d = decode(bytes);
    const auto& recs = only_thread(d);
    ASSERT_EQ(recs.size(), 4U) << problems(d);
    EXPECT_EQ(recs[0].function, 1U);
    EXPECT_EQ(recs[2].function, 3U);
    EXPECT_TRUE(has_problem(d, "BufferExtents", second, "skipped 96 bytes to the next buffer"))
        << problems(d);
    EXPECT_TRUE(d.report->complete());
    ASSERT_EQ(d.report->problems().size(), 1U) << problems(d);
    EXPECT_EQ(d.report->problems()[0].kind, ErrorKind::Malformed);  // corrupt, not cut
}

TEST(XrayReader, CutLogKeepsWhatIsThereAndSaysItStopped) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100).enter(1, 1).exit(1, 1).end_buffer();
    b.begin_buffer(2, 9, 1, 150).enter(2, 1).exit(2, 1).enter(3, 1).end_buffer();
    auto bytes = b.bytes();
    bytes.resize(bytes.size() - 4);  // the last function record loses half
    const Decoded d = decode(bytes);
    ASSERT_EQ(d.threads.size(), 2U);
    EXPECT_EQ(d.records, 4U);
    EXPECT_FALSE(d.report->complete());
    const auto& stop = *d.report->stop_reason();
    EXPECT_EQ(stop.record, "BufferExtents");
    EXPECT_NE(stop.message.find("cut short"), std::string::npos) << stop.to_string();
    EXPECT_EQ(stop.kind, ErrorKind::Truncated);
    EXPECT_TRUE(has_problem(d, "Function", bytes.size() - 4, "partial record: 4 of 8"))
        << problems(d);
}

TEST(XrayReader, RecordsOutOfPlaceAreReportedAndSkipped) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100).enter(1, 1).exit(1, 1).argument(5).metadata(12).end_buffer();
    b.begin_buffer(1, 9, 0, 200).enter(2, 1).end_buffer();
    const Decoded d = decode(b.bytes());
    const auto& recs = only_thread(d);
    ASSERT_EQ(recs.size(), 3U) << problems(d);
    EXPECT_TRUE(recs[1].args.empty());
    const std::uint64_t arg_at = 32 + 16 + 64 + 16;
    EXPECT_TRUE(has_problem(d, "CallArgument", arg_at, "not after a function entry"))
        << problems(d);
    EXPECT_TRUE(has_problem(d, "Metadata", arg_at + 16, "unknown metadata record kind 12"))
        << problems(d);
    EXPECT_EQ(d.report->kinds().at("CallArgument").skipped, 1U);
    EXPECT_EQ(d.report->kinds().at("CallArgument").bad, 1U);

    FdrBuilder early(5);
    early.metadata(0, {1}).enter(1, 1).new_cpu(0, 50).enter(2, 1).end_buffer();
    const Decoded e = decode(early.bytes());
    ASSERT_EQ(e.records, 1U) << problems(e);
    EXPECT_TRUE(has_problem(e, "function-enter", 32 + 32, "before any NewCPUId")) << problems(e);
}

// The decoder's shortcuts for CallArgument and version 5 custom events must rule as the verifier
// does: an argument after a custom event is not after an entry, and an event before any
// NewCPUId has no time base.
TEST(XrayReader, CustomEventsEndAnEntrysArgumentsAndNeedATimeBase) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 100).enter(1, 1).argument(6).custom("hi", 2).argument(7).exit(1, 1);
    b.end_buffer();
    const Decoded d = decode(b.bytes());
    const auto& recs = only_thread(d);
    ASSERT_EQ(recs.size(), 3U) << problems(d);
    EXPECT_EQ(recs[0].args, std::vector<std::uint64_t>{6});
    EXPECT_EQ(recs[1].kind, "custom-event");
    EXPECT_EQ(recs[1].tsc, 103U);
    EXPECT_EQ(recs[1].data, "hi");
    const std::uint64_t arg_at = 32 + 16 + 64 + 8 + 16 + 16 + 2;
    EXPECT_TRUE(has_problem(d, "CallArgument", arg_at, "not after a function entry"))
        << problems(d);
    EXPECT_EQ(d.report->kinds().at("CallArgument").read, 2U);
    EXPECT_EQ(d.report->kinds().at("CallArgument").skipped, 1U);
    EXPECT_EQ(d.report->kinds().at("CustomEvent").read, 1U);

    FdrBuilder early(5);
    early.metadata(0, {1}).custom("x", 1).new_cpu(0, 50).custom("y", 1).end_buffer();
    const Decoded e = decode(early.bytes());
    ASSERT_EQ(e.records, 1U) << problems(e);
    EXPECT_TRUE(has_problem(e, "CustomEvent", 32 + 32, "before any NewCPUId")) << problems(e);
    EXPECT_EQ(e.report->kinds().at("CustomEvent").skipped, 1U);
}

TEST(XrayReader, VersionOneBuffersAreStridedAndEndAtEndOfBuffer) {
    FdrBuilder b(1, E::Little, BitOrder::LsbFirst, 1'000'000'000, 256);
    b.begin_buffer(5, 0, 0, 10).enter(1, 1).exit(1, 1).end_of_buffer().end_buffer();
    b.begin_buffer(6, 0, 1, 20).enter(2, 1).end_of_buffer().end_buffer();
    const auto bytes = b.bytes();
    ASSERT_EQ(bytes.size(), 32U + 2 * 256);
    const Decoded d = decode(bytes);
    EXPECT_EQ(d.report->problem_count(), 0U) << problems(d);
    EXPECT_EQ(d.records, 3U);
    EXPECT_EQ(d.threads.size(), 2U);

    // Without a usable buffer size the buffers are found by their NewBuffer records.
    auto no_size = bytes;
    for (int i = 16; i < 24; ++i) no_size[i] = 0;
    const Decoded n = decode(no_size);
    EXPECT_EQ(n.records, 3U) << problems(n);
    EXPECT_TRUE(has_problem(n, "FileHeader", 16, "finding buffers by their NewBuffer records"));
}

TEST(XrayReader, EndOfBufferAfterVersionOneEndsTheBufferAndIsReported) {
    FdrBuilder b(3);
    b.begin_buffer(1, 2, 0, 10).enter(1, 1).end_of_buffer().exit(1, 1).end_buffer();
    const Decoded d = decode(b.bytes());
    EXPECT_EQ(d.records, 1U);
    EXPECT_TRUE(has_problem(d, "EndOfBuffer", 32 + 16 + 64 + 8, "not written after version 1"))
        << problems(d);
}

TEST(XrayReader, ThreadsMergeInTimeOrderAndEachThreadNeverGoesBack) {
    FdrBuilder b(5);
    // Thread 2's buffer comes first in the file but starts later; thread 1 has two buffers
    // in reverse order and migrates to a CPU whose TSC reads a little behind.
    b.begin_buffer(2, 9, 1, 150).enter(7, 0).exit(7, 100).end_buffer();
    b.begin_buffer(1, 9, 0, 300).enter(3, 0).exit(3, 10).end_buffer();
    b.begin_buffer(1, 9, 0, 100).enter(1, 0).new_cpu(2, 80).exit(1, 10).end_buffer();
    const auto bytes = b.bytes();
    const Decoded d = decode(bytes);
    ASSERT_EQ(d.threads.size(), 2U);
    const auto& t1 = d.threads.at({9, 1});
    ASSERT_EQ(t1.size(), 4U);
    EXPECT_EQ(t1[0].tsc, 100U);
    EXPECT_EQ(t1[1].tsc, 90U);  // as logged; its time is held at 100
    EXPECT_EQ(t1[2].tsc, 300U);

    collectors::ingest::IngestReport report("xray", "t");
    auto reader = collectors::xray::XrayReader::open(bytes, "t", report);
    ASSERT_TRUE(reader);
    std::uint32_t thread = 0;
    const collectors::xray::CallEvent* e = nullptr;
    std::vector<std::pair<model::Nanos, std::uint32_t>> order;
    int ends = 0;
    for (;;) {
        const auto step = (*reader)->next(thread, e);
        if (step == collectors::xray::XrayReader::Step::Done) break;
        if (step == collectors::xray::XrayReader::Step::ThreadEnd) {
            ++ends;
            continue;
        }
        order.emplace_back(e->ns, e->function);
    }
    EXPECT_EQ(ends, 2);
    const std::vector<std::pair<model::Nanos, std::uint32_t>> want{{100, 1}, {100, 1}, {150, 7},
                                                                   {250, 7}, {300, 3}, {310, 3}};
    EXPECT_EQ(order, want);
    EXPECT_EQ((*reader)->origin_ns(), 100);
}

TEST(XrayReader, WallClockStampsRelateTheTscToClockMonotonic) {
    // 2 GHz: TSC 4e9 is 2 s on the log's timeline. Each buffer's WallClockTime (CLOCK_MONOTONIC,
    // s and us) minus its time base: 98 s, 98 s + 1 us, 98 s + 3 us; the median is taken. A
    // stamp that cannot be microseconds places nothing.
    FdrBuilder b(5, E::Little, BitOrder::LsbFirst, 2'000'000'000);
    b.next_wall_clock(100, 0).begin_buffer(1, 9, 0, 4'000'000'000).enter(1, 0).end_buffer();
    b.next_wall_clock(102, 3).begin_buffer(2, 9, 0, 8'000'000'000).enter(1, 0).end_buffer();
    b.next_wall_clock(5, 2'000'000).begin_buffer(3, 9, 0, 1'000).enter(1, 0).end_buffer();
    b.next_wall_clock(101, 1).begin_buffer(1, 9, 0, 6'000'000'000).enter(1, 0).end_buffer();
    const std::vector<std::uint8_t> log = b.bytes();  // the reader reads it in place
    collectors::ingest::IngestReport report("xray", "t");
    auto reader = collectors::xray::XrayReader::open(log, "t", report);
    ASSERT_TRUE(reader);
    EXPECT_EQ((*reader)->index().wall_stamps.size(), 3U);
    EXPECT_EQ((*reader)->to_monotonic(), 98'000'001'000);

    BasicBuilder basic(3);
    basic.record(0, 1, 1000, 7, 9).record(1, 1, 1010, 7, 9);
    auto plain = collectors::xray::XrayReader::open(basic.bytes(), "b", report);
    ASSERT_TRUE(plain);
    EXPECT_EQ((*plain)->to_monotonic(), std::nullopt);  // basic mode has no wall clock
}

TEST(XrayReader, ArgumentsSurviveBatchBoundaries) {
    FdrBuilder b(5);
    b.begin_buffer(1, 9, 0, 0);
    for (std::uint32_t i = 0; i < 9000; ++i) b.function(3, 4, 1).argument(i).exit(4, 1);
    b.end_buffer();
    const Decoded d = decode(b.bytes());
    const auto& recs = only_thread(d);
    ASSERT_EQ(recs.size(), 18000U);
    for (std::uint32_t i = 0; i < 9000; ++i) {
        ASSERT_EQ(recs[std::size_t{2} * i].args, std::vector<std::uint64_t>{i}) << i;
    }
    EXPECT_EQ(d.report->kinds().at("CallArgument").read, 9000U);
}

TEST(XrayReader, ThreadsPastTheLimitAreReportedNotKept) {
    FdrBuilder b(5);
    const auto n = static_cast<std::int32_t>(collectors::xray::kMaxThreads) + 2;
    for (std::int32_t tid = 1; tid <= n; ++tid)
        b.begin_buffer(tid, 9, 0, 100).enter(1, 1).end_buffer();
    const Decoded d = decode(b.bytes());
    EXPECT_EQ(d.threads.size(), collectors::xray::kMaxThreads);
    EXPECT_EQ(d.report->problem_count(), 2U);
    EXPECT_NE(problems(d).find("more than 16384 threads"), std::string::npos) << problems(d);
    for (const auto& p : d.report->problems()) EXPECT_EQ(p.kind, ErrorKind::Limit);
}

TEST(XrayReader, ZeroFrequencyIsReportedAndTakenAsOneGigahertz) {
    FdrBuilder b(5, E::Little, BitOrder::LsbFirst, 0);
    b.begin_buffer(1, 9, 0, 5000).enter(1, 0).end_buffer();
    const std::vector<std::uint8_t> log = b.bytes();  // the reader reads it in place
    collectors::ingest::IngestReport report("xray", "t");
    auto reader = collectors::xray::XrayReader::open(log, "t", report);
    ASSERT_TRUE(reader);
    EXPECT_EQ((*reader)->origin_ns(), 5000);
    ASSERT_EQ(report.problem_count(), 1U);
    EXPECT_EQ(report.problems()[0].field, "cycle_frequency");
}

TEST(XrayReader, BasicModeRunsArgumentsAndDamage) {
    for (E endian : {E::Little, E::Big}) {
        BasicBuilder b(3, endian);
        b.record(0, 1, 100, 10, 5, 2).record(3, 2, 110, 10, 5, 2).arg(2, 10, 5, 42);
        b.record(0, 9, 105, 11, 5, 1);                   // another thread's run
        b.record(1, 2, 120, 10, 5, 2).arg(3, 10, 5, 1);  // argument of nothing
        b.record(0, 1, 130, 10, 5, 2, 7);                // unknown record type
        auto bytes = b.bytes();
        bytes.resize(bytes.size() + 5, 0);  // a cut record at the end
        const Decoded d = decode(bytes);
        ASSERT_TRUE(d.opened) << d.error;
        ASSERT_EQ(d.threads.size(), 2U);
        const auto& t10 = d.threads.at({5, 10});
        ASSERT_EQ(t10.size(), 3U) << problems(d);
        EXPECT_EQ(t10[1], (Rec{"function-enter-arg", 2, "", 110, 2, {42}, ""}));
        EXPECT_EQ(t10[2].kind, "function-exit");
        EXPECT_TRUE(has_problem(d, "ArgPayload", 32 + 5 * 32, "does not follow")) << problems(d);
        EXPECT_TRUE(has_problem(d, "BasicRecord", 32 + 6 * 32, "unknown record type 7"))
            << problems(d);
        EXPECT_FALSE(d.report->complete());
        EXPECT_EQ(d.report->stop_reason()->offset, 32U + 7 * 32);
    }
}

}  // namespace
}  // namespace apcgate::xray_test
