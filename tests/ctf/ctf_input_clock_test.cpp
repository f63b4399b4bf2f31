// The CTF input's clock (CtfSource::clock(), decided by the probe: trace_probe.hpp): its domain
// from the clock classes' origin and identity, its relation to CLOCK_MONOTONIC from LTTng's
// "monotonic" clock offset, carried from the worker in the probe frame (hostile bytes there are
// errors); on hand-made traces and on the LTTng session of babeltrace's corpus.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/trace_probe.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
namespace ctf = collectors::ctf;
using collectors::ingest::InputClock;
using ctf::ClockClassInfo;

// ---- the probe frame ---------------------------------------------------------------------------

std::vector<std::uint8_t> probe_body(const ctf::ProbeResult& p) {
    ctf::FrameBytes frame;
    ctf::encode_probe(p, frame);
    return {frame.begin() + ctf::kFrameHeaderBytes, frame.end()};
}

ctf::ProbeResult probe_with_clock() {
    ctf::ProbeResult p;
    p.traces = {"/t/ust/uid/0/64-bit"};
    p.range = ctf::TimeRange{100, 900};
    p.clock = {"unix-epoch", -1'700'000'000'123'456'789, "CTF clock 'monotonic' (LTTng)"};
    return p;
}

TEST(CtfInputClock, ProbeFrameCarriesTheClock) {
    auto q = ctf::decode_probe(probe_body(probe_with_clock()));
    ASSERT_TRUE(q) << q.error().to_string();
    EXPECT_EQ(q->clock.domain, "unix-epoch");
    ASSERT_TRUE(q->clock.to_monotonic);
    EXPECT_EQ(*q->clock.to_monotonic, -1'700'000'000'123'456'789);
    EXPECT_EQ(q->clock.description, "CTF clock 'monotonic' (LTTng)");
    ASSERT_TRUE(q->range);
    EXPECT_EQ(q->range->end, 900);

    ctf::ProbeResult p;  // no relation to CLOCK_MONOTONIC, a domain alone
    p.clock = {"", std::nullopt, "x"};
    auto r = ctf::decode_probe(probe_body(p));
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->clock.domain, "");
    EXPECT_FALSE(r->clock.to_monotonic);
    EXPECT_EQ(r->clock.description, "x");
}

TEST(CtfInputClock, EveryTruncationOfTheClockIsAnError) {
    const auto body = probe_body(probe_with_clock());
    for (std::size_t n = 0; n < body.size(); ++n)
        EXPECT_FALSE(ctf::decode_probe(std::span(body).first(n))) << n;
}

TEST(CtfInputClock, GarbageInTheClockIsAnErrorNamingTheField) {
    const auto body = probe_body(probe_with_clock());
    // The layout's tail: domain (4 + 10), has_to_monotonic, to_monotonic, description.
    const std::string description = "CTF clock 'monotonic' (LTTng)";
    const std::size_t description_at = body.size() - description.size() - 4;
    const std::size_t domain_at = description_at - 8 - 1 - 4 - 10;
    const auto field = [&](auto change) {
        std::vector<std::uint8_t> b = body;
        change(b);
        auto q = ctf::decode_probe(b);
        return q ? std::string("(decoded)") : q.error().field;
    };
    EXPECT_EQ(field([](auto&) {}), "(decoded)");
    const auto set_u32 = [](std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
        std::memcpy(b.data() + at, &v, 4);
    };
    // Lengths over the limit, or past the frame.
    EXPECT_EQ(field([&](auto& b) { set_u32(b, domain_at, ctf::kMaxClockText + 1); }),
              "clock_domain");
    EXPECT_EQ(field([&](auto& b) { set_u32(b, domain_at, 0xffffffffU); }), "clock_domain");
    EXPECT_EQ(field([&](auto& b) { set_u32(b, description_at, 1000); }), "clock_description");
    // No to_monotonic said: its 8 bytes are read as the description's length.
    EXPECT_NE(field([&](auto& b) { b[domain_at + 14] = 0; }), "(decoded)");
    EXPECT_EQ(field([](auto& b) { b.push_back(0); }), "end");
}

// ---- the rules ---------------------------------------------------------------------------------

ClockClassInfo lttng_clock(std::int64_t offset_s, std::uint64_t offset_cycles) {
    return {"monotonic",  "88cba016-36e2-48c2-aff8-3e4b9aefb05c", true, 1'000'000'000, offset_s,
            offset_cycles};
}

TEST(CtfInputClock, OffsetInNanosecondsNeedsNoSmallCyclesAndDoesNotOverflow) {
    EXPECT_EQ(ctf::clock_offset_ns(lttng_clock(1000, 500'000'000)), 1'000'500'000'000);
    // LTTng's metadata gives the whole offset in cycles: 1.56e18 cycles * 1e9 overflows 64 bits.
    EXPECT_EQ(ctf::clock_offset_ns(lttng_clock(0, 1565056443054742594ULL)), 1565056443054742594);
    ClockClassInfo slow{"c", "", false, 1'000'000, -10, 2'500'000};  // 1 MHz: 2.5 s
    EXPECT_EQ(ctf::clock_offset_ns(slow), -7'500'000'000);
    ClockClassInfo fast{"c",   "",
                        false, std::numeric_limits<std::uint64_t>::max(),
                        0,     std::numeric_limits<std::uint64_t>::max()};
    EXPECT_EQ(ctf::clock_offset_ns(fast), 1'000'000'000);
    EXPECT_FALSE(ctf::clock_offset_ns(lttng_clock(std::numeric_limits<std::int64_t>::max(), 0)));
    EXPECT_FALSE(ctf::clock_offset_ns(lttng_clock(0, std::numeric_limits<std::uint64_t>::max())));
    EXPECT_FALSE(ctf::clock_offset_ns(ClockClassInfo{"c", "", false, 0, 1, 0}));
}

TEST(CtfInputClock, LttngSessionsAreOnTheUnixEpochAndMonotonic) {
    // A kernel and a UST trace of one session: 40 ns apart.
    const auto one = ctf::decide_clock(
        {lttng_clock(1564079206, 484157378), lttng_clock(1564079206, 484157338)}, false);
    EXPECT_EQ(one.domain, "unix-epoch");
    ASSERT_TRUE(one.to_monotonic);
    EXPECT_EQ(*one.to_monotonic, -1564079206484157378);
    EXPECT_EQ(one.description, "CTF clock 'monotonic' (LTTng, CLOCK_MONOTONIC)");
    // Sessions with realtime stepped by 3 s in between: the first's offset, and a word on it.
    const auto apart = ctf::decide_clock({lttng_clock(100, 0), lttng_clock(103, 5)}, false);
    ASSERT_TRUE(apart.to_monotonic);
    EXPECT_EQ(*apart.to_monotonic, -100'000'000'000);
    EXPECT_NE(apart.description.find("differ by up to 3000 ms"), std::string::npos)
        << apart.description;
}

TEST(CtfInputClock, OtherClocksHaveNoRelationToMonotonic) {
    ClockClassInfo board{"board_timer", "", false, 1'000'000, 5, 0};
    auto c = ctf::decide_clock({board}, false);
    EXPECT_EQ(c.domain, "ctf:board_timer");
    EXPECT_FALSE(c.to_monotonic);
    EXPECT_EQ(c.description, "CTF clock 'board_timer'");
    board.uuid = "c19b5ac9-b8e6-4f78-be95-a605d04e34c6";
    EXPECT_EQ(ctf::decide_clock({board, board}, false).domain,
              "ctf:board_timer/c19b5ac9-b8e6-4f78-be95-a605d04e34c6");
    // Two clocks of no common origin, a clock of no name nor UUID, a stream without a clock.
    ClockClassInfo other = board;
    other.uuid = "5f3ed925-9d73-4637-b8e4-02077abc8c8f";
    EXPECT_EQ(ctf::decide_clock({board, other}, false).domain, "");
    EXPECT_EQ(ctf::decide_clock({ClockClassInfo{}}, false).domain, "");
    const auto unclocked = ctf::decide_clock({lttng_clock(1, 0)}, true);
    EXPECT_EQ(unclocked.domain, "");
    EXPECT_FALSE(unclocked.to_monotonic);
    // Unix epoch, but one is not LTTng's: on the Unix epoch with no relation to monotonic.
    board.unix_epoch = true;
    const auto mixed = ctf::decide_clock({lttng_clock(1, 0), board}, false);
    EXPECT_EQ(mixed.domain, "unix-epoch");
    EXPECT_FALSE(mixed.to_monotonic);
}

// ---- through the source
// --------------------------------------------------------------------------

// A one-packet trace of `clock`, read through the source (and its probe worker).
InputClock clock_of_trace(const std::string& scratch, const ClockAndSequence& clock) {
    const fs::path dir = scratch_dir(scratch) / "t";
    CtfTraceWriter w(dir, {{"app:tick", "int32_t i;"}}, "ust", clock);
    w.packet("chan_0", 0, 0, {{0, 100, Payload().i32(1)}, {0, 200, Payload().i32(2)}});
    w.finish();
    auto run = run_ctf(dir);
    EXPECT_TRUE(run) << run.error().to_string();
    if (run) {
        EXPECT_EQ((*run)->event_counts().at("app:tick"), 2U);
    }
    auto clock_read = run ? (*run)->source->clock() : InputClock{"?", std::nullopt, "?"};
    fs::remove_all(dir.parent_path());
    return clock_read;
}

TEST(CtfInputClock, HandMadeMonotonicClockGivesItsOffset) {
    const auto c = clock_of_trace("clock-mono", ClockAndSequence{1'000'000'000, 1000, 500'000'000});
    ASSERT_TRUE(c.to_monotonic) << c.description;
    EXPECT_EQ(*c.to_monotonic, -1'000'500'000'000);
    // libbabeltrace2 puts a clock on the Unix epoch when the metadata says `absolute = true` or
    // the tracer is LTTng: this one is neither, and has no UUID.
    EXPECT_EQ(c.domain, "ctf:monotonic");
    EXPECT_EQ(c.description, "CTF clock 'monotonic' (LTTng, CLOCK_MONOTONIC)");
}

TEST(CtfInputClock, HandMadeClockOfAnotherNameHasNoRelationToMonotonic) {
    ClockAndSequence board{1'000'000, 1000, 500, false};
    board.name = "board_timer";
    const auto c = clock_of_trace("clock-board", board);
    EXPECT_FALSE(c.to_monotonic) << *c.to_monotonic;
    EXPECT_EQ(c.domain, "ctf:board_timer");
    EXPECT_EQ(c.description, "CTF clock 'board_timer'");
}

TEST(CtfInputClock, LttngKernelAndUstTracesOfOneSession) {
    // babeltrace's corpus: kernel/ and ust/ of one session, offsets 1564079206.484157378 s and
    // .484157338 s; which one the probe meets first is the merge's business.
    const fs::path trace =
        fs::path(apcgate::test_paths::testdata_dir()) / "ctf/succeed/multi-domains";
    auto run = run_ctf(trace);
    ASSERT_TRUE(run) << run.error().to_string();
    const auto c = (*run)->source->clock();
    EXPECT_EQ(c.domain, "unix-epoch");
    ASSERT_TRUE(c.to_monotonic) << c.description;
    EXPECT_GE(*c.to_monotonic, -1564079206484157378);
    EXPECT_LE(*c.to_monotonic, -1564079206484157338);
    EXPECT_EQ(c.description, "CTF clock 'monotonic' (LTTng, CLOCK_MONOTONIC)");
}

TEST(CtfInputClock, TraceWithoutAClockIsADomainAlone) {
    auto run = run_ctf(fs::path(apcgate::test_paths::testdata_dir()) / "ctf/succeed/smalltrace");
    ASSERT_TRUE(run) << run.error().to_string();
    const auto c = (*run)->source->clock();
    EXPECT_EQ(c.domain, "");
    EXPECT_FALSE(c.to_monotonic);
}

TEST(CtfInputClock, RefreshProbesATraceRewrittenSinceItWasOpened) {
    const fs::path dir = scratch_dir("clock-refresh") / "t";
    const auto write = [&](std::int64_t offset_s, int events) {
        fs::remove_all(dir);
        CtfTraceWriter w(dir, {{"app:tick", "int32_t i;"}}, "ust",
                         ClockAndSequence{1'000'000'000, offset_s, 0});
        std::vector<TraceEvent> packet;
        packet.reserve(static_cast<std::size_t>(events));
        for (int i = 0; i < events; ++i)
            packet.push_back({0, 100 + 100 * static_cast<std::uint64_t>(i), Payload().i32(i)});
        w.packet("chan_0", 0, 0, packet);
        w.finish();
    };
    write(1000, 2);
    auto run = run_ctf(dir);
    ASSERT_TRUE(run) << run.error().to_string();
    auto& source = *(*run)->source;
    EXPECT_EQ(source.time_origin(), 1000'000'000'100);
    ASSERT_TRUE(source.refresh());  // nothing changed: nothing probed
    EXPECT_EQ(*source.clock().to_monotonic, -1000'000'000'000);
    // A later session's trace in its place (another session: another offset, more events).
    write(5000, 3);
    ASSERT_TRUE(source.refresh());
    EXPECT_EQ(source.time_origin(), 5000'000'000'100);
    EXPECT_EQ(*source.clock().to_monotonic, -5000'000'000'000);
    fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace apcgate::ctf_test
