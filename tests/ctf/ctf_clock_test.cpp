// The trace clock and the tracer's losses on hand-made traces: a clock's frequency and offsets
// (CTF 1.8 section 8) put events on the capture's nanosecond timeline, and a gap in the packets'
// packet_seq_num (discarded packets) is counted in the report and shown in the capture as a
// counter and a marker, as babeltrace2 reports it.
#include <gtest/gtest.h>

#include "babeltrace_reference.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;

// A 1 MHz clock starting 1000 s + 500 cycles after its origin; packets 1 and 2 are missing.
fs::path write_slow_clock_trace(const fs::path& dir) {
    CtfTraceWriter w(dir, {{"app:tick", "int32_t i;"}}, "ust",
                     ClockAndSequence{1000000, 1000, 500, true});
    w.packet("chan_0", 0, 0, {{0, 100, Payload().i32(1)}, {0, 250, Payload().i32(2)}}, 0);
    w.packet("chan_0", 0, 0, {{0, 400, Payload().i32(3)}}, 3);
    w.finish();
    return dir;
}

class SlowClockTrace : public WrittenTrace {
  protected:
    void SetUp() override { load("clock", "t", write_slow_clock_trace); }
};

TEST_F(SlowClockTrace, FrequencyAndOffsetsGiveNanoseconds) {
    // (offset + cycles) / freq seconds after offset_s: the first packet begins at cycle 100.
    EXPECT_EQ(run_->source->time_origin(), 1000LL * 1'000'000'000 + (500 + 100) * 1000LL);
    std::vector<std::pair<model::Nanos, std::string>> ticks;
    for (const auto& a : run_->all<model::Annotation>())
        if (const auto* s = std::get_if<model::StringAnnotation>(&a.body); s && !s->text.empty())
            ticks.emplace_back(a.ts, s->text);
    const std::vector<std::pair<model::Nanos, std::string>> expected = {
        {0, "app:tick i=1"}, {150'000, "app:tick i=2"}, {300'000, "app:tick i=3"}};
    EXPECT_EQ(ticks, expected);
}

TEST_F(SlowClockTrace, DiscardedPacketsAreCountedAndShown) {
    EXPECT_EQ(run_->report().kinds().at("(discarded packets)").read, 2U);
    EXPECT_EQ(run_->counter_totals().at("CTF_discarded_packets"), 2);
    EXPECT_EQ(run_->counter_totals().at("CTF_discarded_events"), 0);
    std::vector<std::string> markers;
    for (const auto& a : run_->all<model::Annotation>())
        if (const auto* m = std::get_if<model::MarkerAnnotation>(&a.body))
            markers.push_back(m->text);
    ASSERT_EQ(markers.size(), 1U);
    EXPECT_NE(markers[0].find("discarded 2 packets"), std::string::npos) << markers[0];
    if (babeltrace_available()) {
        const Reference ref = babeltrace_reference(dir_);
        ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
        EXPECT_EQ(ref.discarded_packets, 2U);
        EXPECT_EQ(run_->event_counts(), ref.events);
    }
}

}  // namespace
}  // namespace apcgate::ctf_test
