// Hostile and damaged archives: every problem is reported with its offset and record kind,
// reading goes on where a record's size allows it, and nothing decoded before a problem is lost
// (babeltrace's "valid events then invalid events").
#include <gtest/gtest.h>

#include "collectors/fxt/record_kinds.hpp"
#include "fxt_writer.hpp"
#include "source_runner.hpp"

namespace apcgate::fxt_test {
namespace {

namespace kind = collectors::fxt::kind;

std::size_t instants(const SourceRun& run) {
    std::size_t n = 0;
    for (const auto& [a, s] : run.annotations<model::StringAnnotation>())
        if (!s.text.empty()) ++n;
    return n;
}

TEST(FxtBadInput, ValidEventsThenASizeZeroRecordKeepsTheValidOnes) {
    FxtWriter w;
    w.magic();
    for (int i = 0; i < 5; ++i)
        w.event(0, 10 + static_cast<std::uint64_t>(i), inline_thread(1, 2), {}, inl("ok"));
    const std::size_t bad_at = w.size();
    w.raw_word(0x0000000000000004ULL);  // an event header with size 0
    w.event(0, 100, inline_thread(1, 2), {}, inl("unreachable"));
    const auto run = run_bytes(w.bytes());
    EXPECT_EQ(instants(*run), 5U);
    ASSERT_FALSE(run->report().complete());
    const auto& stop = *run->report().stop_reason();
    EXPECT_EQ(stop.offset, std::optional<std::uint64_t>(bad_at));
    EXPECT_EQ(stop.record, kind::kInstant);
    EXPECT_EQ(stop.kind, ErrorKind::Malformed);
    EXPECT_EQ(run->report().bytes_done, bad_at);
    expect_time_order(*run);
}

TEST(FxtBadInput, TruncatedTailKeepsEverythingBeforeIt) {
    FxtWriter w;
    w.magic();
    w.event(2, 10, inline_thread(1, 2), {}, inl("open"));
    w.event(0, 20, inline_thread(1, 2), {}, inl("kept"));
    const std::size_t cut_record = w.size();
    w.event(0, 30, inline_thread(1, 2), {}, inl("cut"),
            {arg_string(inl("s"), inl("some long value"))});
    auto bytes = w.take();
    bytes.resize(bytes.size() - 5);
    const auto run = run_bytes(bytes);
    EXPECT_EQ(instants(*run), 2U);
    ASSERT_TRUE(run->report().stop_reason());
    EXPECT_EQ(run->report().stop_reason()->offset, std::optional<std::uint64_t>(cut_record));
    EXPECT_NE(run->report().stop_reason()->message.find("truncated"), std::string::npos);
    EXPECT_EQ(run->report().stop_reason()->kind, ErrorKind::Truncated);
}

TEST(FxtBadInput, UnknownTypesAreReportedAndSkippedBySize) {
    FxtWriter w;
    w.magic();
    w.event(0, 10, inline_thread(1, 2), {}, inl("before"));
    const std::size_t unknown_at = w.size();
    w.raw_record(12, 0xabcdef0000ULL, {1, 2, 3});  // record type 12
    w.raw_record(8, 7ULL << 60, {4});              // scheduling sub-type 7
    w.raw_record(0, 9ULL << 16, {});               // metadata type 9
    w.event(0, 20, inline_thread(1, 2), {}, inl("after"));
    const auto run = run_bytes(w.bytes());
    EXPECT_TRUE(run->report().complete());
    EXPECT_EQ(instants(*run), 2U);
    EXPECT_EQ(run->report().problem_count(), 3U);
    EXPECT_EQ(run->report().problems()[0].offset, std::optional<std::uint64_t>(unknown_at));
    EXPECT_EQ(run->report().problems()[0].record, kind::kUnknown);
    EXPECT_EQ(run->stats(kind::kUnknown).bad, 1U);
    EXPECT_EQ(run->stats(kind::kScheduling).bad, 1U);
    EXPECT_EQ(run->stats(kind::kMetadata).bad, 1U);
    EXPECT_EQ(run->report().bytes_done, run->report().bytes_total);
}

TEST(FxtBadInput, MalformedRecordsInsideTheirSizeAreSkipped) {
    FxtWriter w;
    w.magic();
    // A log whose message length runs past its record: the next record is still found.
    w.raw_record(9, (500ULL << 16), {5, 1, 2, 0x6f6c6c6568});
    // An event timestamp that overflows 2^63 ns at 1 tick per us.
    w.initialization(1'000'000);
    w.event(0, ~0ULL, inline_thread(1, 2), {}, inl("overflow"));
    w.event(0, 7, inline_thread(1, 2), {}, inl("fine"));
    const auto run = run_bytes(w.bytes());
    EXPECT_TRUE(run->report().complete());
    EXPECT_EQ(instants(*run), 1U);
    EXPECT_EQ(run->stats(kind::kLog).bad, 1U);
    EXPECT_EQ(run->stats(kind::kInstant).bad, 1U);
    EXPECT_EQ(run->stats(kind::kInstant).mapped, 1U);
    ASSERT_EQ(run->report().problems().size(), 2U);
    EXPECT_EQ(run->report().problems()[0].field, "log message");
    EXPECT_EQ(run->report().problems()[1].field, "timestamp");
    // The message overruns a record that is all there: a bad length, not a cut file.
    EXPECT_EQ(run->report().problems()[0].kind, ErrorKind::Malformed);
    EXPECT_EQ(run->report().problems()[1].kind, ErrorKind::Malformed);
}

TEST(FxtBadInput, UndefinedReferencesAndBadUtf8StillMap) {
    FxtWriter w;
    w.magic();
    w.event(2, 1, thr(9), idx(77), inl("\xc3\x28 bad\x01"));  // thread 9 and string 77 unknown
    w.event(3, 2, thr(9), {}, {});
    const auto run = run_bytes(w.bytes());
    const auto spans = run->annotations<model::StringAnnotation>();
    ASSERT_EQ(spans.size(), 2U);
    EXPECT_EQ(spans[0].second.text, "?:\xEF\xBF\xBD( bad\xEF\xBF\xBD");
    EXPECT_EQ(spans[0].first.tid, 0);
}

TEST(FxtBadInput, EmptyFileAndGarbageDoNotCrash) {
    const auto empty = run_bytes({}, {}, "empty.fxt");
    EXPECT_TRUE(empty->events.empty());
    EXPECT_TRUE(empty->report().complete());
    std::vector<std::uint8_t> garbage(4096);
    for (std::size_t i = 0; i < garbage.size(); ++i)
        garbage[i] = static_cast<std::uint8_t>(i * 131 + 7);
    const auto run = run_bytes(garbage, {}, "garbage.fxt");
    EXPECT_GT(run->report().problem_count(), 0U);
    expect_time_order(*run);
}

}  // namespace
}  // namespace apcgate::fxt_test
