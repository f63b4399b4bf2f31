// Byte-exact frames for every message the encoder writes. Expected bytes are written by hand
// from gator-protocol-v6.8.txt ("APC Frame Format", "Packed Values"): values 0..63 take one
// byte; e.g. 1000 = E8 07, 2000 = D0 0F, 3000 = B8 17, 100 = E4 00 (bit 6 set needs a second
// byte), 300 = AC 02, 64 = C0 00, -1 = 7F, -2 = 7E, -64 = 40, 0xd03 = 83 1A,
// 0x400000 = 80 80 80 02.
#include <gtest/gtest.h>

#include "apc_test_support.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::cat;
using testing::packed_string;
using testing::raw;
using testing::TestCapture;

TEST(EncoderFrames, SummaryFrameWithAttributesAndCoreNames) {
    TestCapture t;
    Encoder e(t.counters, t.sink);
    SummaryInfo info{1000, 5, 64, {{"k", "v"}}};
    const model::CoreName cores[] = {{0, 1, 0xd03, "A53"}};
    e.summary(info, cores);
    ASSERT_EQ(t.sink.frames.size(), 1U);  // sent at once, no flush needed
    const Bytes want = cat({{0x01},       // frame: Summary
                            {0x01},       // message: Summary
                            packed_string("1\n2\r\n3\r4\n\r5"),
                            {0xE8, 0x07},  // timestamp 1000
                            {0x05},        // uptime 5
                            {0xC0, 0x00},  // monotonic delta 64
                            packed_string("k"),
                            packed_string("v"),
                            packed_string(""),
                            {0x03, 0x01, 0x83, 0x1A},
                            packed_string("A53")});
    EXPECT_EQ(t.sink.frames[0], want);
    EXPECT_EQ(e.stats().counts[EncoderStat::Frames], 1U);
    EXPECT_EQ(e.stats().counts[EncoderStat::Bytes], want.size());
}

TEST(EncoderFrames, LaterCoreNameGoesToALaterSummaryFrame) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::CoreName{5, 2, 0x41, "X"});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], cat({{0x01, 0x03, 0x02, 0xC1, 0x00}, packed_string("X")}));
}

TEST(EncoderFrames, NameFrameCookieAndThreadNames) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::CookieName{0, 2, 5, "/bin/ls"});
    e.add(model::ThreadName{1000, 2, 300, "main"});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], cat({{0x03, 0x02},  // Name frame, core 2
                                     {0x01, 0x05},
                                     packed_string("/bin/ls"),
                                     {0x02, 0xE8, 0x07, 0xAC, 0x02},
                                     packed_string("main")}));
}

TEST(EncoderFrames, ProcFrameComm) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::ProcComm{0, 1, 100, 101, "/usr/bin/app", "worker"});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], cat({{0x0B, 0x01, 0xE4, 0x00, 0xE5, 0x00},
                                     packed_string("/usr/bin/app"),
                                     packed_string("worker")}));
}

TEST(EncoderFrames, BacktraceWithEndOfMessageAndCookieOneRemapped) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::Backtrace{2000, 3, 7, 100, 101, {{0, 0x400000}, {1, 16}, {-1, -64}}});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x02, 0x03,                    // Backtrace frame, core 3
                                       0xD0, 0x0F, 0x07,              // ts 2000, exec cookie 7
                                       0xE4, 0x00, 0xE5, 0x00,        // pid 100, tid 101
                                       0x00, 0x80, 0x80, 0x80, 0x02,  // kernel, 0x400000
                                       0x7F, 0x10,                    // cookie 1 written as -1
                                       0x7F, 0x40,                    // cookie -1, offset -64
                                       0x01}));                       // End of Message
    EXPECT_EQ(e.stats().counts[EncoderStat::TruncatedBacktraces], 1U);
}

TEST(EncoderFrames, CounterFrameAndUnknownKeyDropped) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::CounterSample{1000, 1, testing::kSingleA, -2, -1});
    e.add(model::CounterSample{1000, 1, 99, 5, -1});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x04, 0xE8, 0x07, 0x01, 0x05, 0x7E}));
    EXPECT_EQ(e.stats().counts[EncoderStat::UnknownKey], 1U);
    EXPECT_EQ(e.stats().messages[model::Event(model::CounterSample{}).index()], 1U);
}

TEST(EncoderFrames, SchedTraceSwitchAndExit) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::SchedSwitch{1000, 2, 300, model::WaitState::Io});
    e.add(model::SchedThreadExit{2000, 2, 300});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x07, 0x02, 0x01, 0xE8, 0x07, 0xAC, 0x02, 0x02,  //
                                       0x02, 0xD0, 0x0F, 0xAC, 0x02}));
}

TEST(EncoderFrames, SchedFramesAreSeparatePerCore) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::SchedSwitch{10, 1, 5, model::WaitState::Other});
    e.add(model::SchedSwitch{11, 0, 6, model::WaitState::Contention});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x07, 0x00, 0x01, 0x0B, 0x06, 0x01}));
    EXPECT_EQ(t.sink.frames[2], Bytes({0x07, 0x01, 0x01, 0x0A, 0x05, 0x00}));
}

TEST(EncoderFrames, ActivityLinkSwitchAndTaskExit) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::ActivityLink{1000, 5, 100, 101});
    e.add(
        model::ActivitySwitch{2000, 1, testing::kActivityKey, 2, -1, model::WaitState::Contention});
    e.add(model::TaskExit{3000, 101});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x0D,                                            //
                                       0x01, 0xE8, 0x07, 0x05, 0xE4, 0x00, 0xE5, 0x00,  //
                                       0x02, 0xD0, 0x0F, 0x01, 0x07, 0x02, 0x7F, 0x01,  //
                                       0x03, 0xB8, 0x17, 0xE5, 0x00}));
}

TEST(EncoderFrames, IdleFrame) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::Idle{1000, 3, -1});
    e.add(model::Idle{2000, 3, 0});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x09, 0x7F, 0xE8, 0x07, 0x03, 0x00, 0xD0, 0x0F, 0x03}));
}

TEST(EncoderFrames, AnnotateFrameWithColouredText) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::Annotation{1000, 1, 300, model::TextAnnotation{model::Rgb{255, 0, 0}, "hi"}});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(
        t.sink.frames[1],
        cat({{0x06, 0x01, 0xAC, 0x02, 0xE8, 0x07, 0x07}, {0x1B, 0xFF, 0x00, 0x00}, raw("hi\n")}));
}

TEST(EncoderFrames, ExternalDataKeepsOneFramePerIdAndDisconnectIsAlone) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::ExternalData{0, 2, {'a', 'b', 'c'}});
    e.add(model::ExternalData{0, 3, {'x'}});
    e.add(model::ExternalData{0, 2, {'d', 'e'}});
    e.add(model::ExternalDisconnect{0, 2});
    // The source's pending data goes out before its disconnect.
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1], cat({{0x0A, 0x02}, raw("abcde")}));
    EXPECT_EQ(t.sink.frames[2], Bytes({0x0A, 0x7F, 0x02}));
    e.add(model::ExternalData{0, 2, {'z'}});  // the id is reused after its disconnect
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 5U);
    EXPECT_EQ(t.sink.frames[3], cat({{0x0A, 0x02}, raw("z")}));
    EXPECT_EQ(t.sink.frames[4], cat({{0x0A, 0x03}, raw("x")}));
}

TEST(EncoderFrames, OutOfOrderTimestampIsClampedAndCounted) {
    TestCapture t;
    auto e = t.encoder();
    e.add(model::CounterSample{2000, 0, testing::kSingleA, 1, -1});
    e.add(model::CounterSample{1000, 1, testing::kSingleA, 2, -1});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1],
              Bytes({0x04, 0xD0, 0x0F, 0x00, 0x05, 0x01, 0xD0, 0x0F, 0x01, 0x05, 0x02}));
    EXPECT_EQ(e.stats().counts[EncoderStat::OutOfOrder], 1U);
}

TEST(EncoderFrames, FlushWithNothingOpenSendsNothingAndEmptyFramesAreNeverSent) {
    TestCapture t;
    auto e = t.encoder();
    e.flush();
    e.add(model::Idle{1, 0, 0});
    e.flush();
    e.flush();
    EXPECT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(e.stats().counts[EncoderStat::Frames], 2U);
}

TEST(EncoderFramesDeath, AddBeforeSummaryAsserts) {
#ifdef NDEBUG
    // Release builds write a default Summary frame first instead.
    TestCapture t;
    Encoder e(t.counters, t.sink);
    e.add(model::Idle{1, 0, 0});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[0], cat({{0x01, 0x01},
                                     packed_string("1\n2\r\n3\r4\n\r5"),
                                     {0x00, 0x00, 0x00},
                                     packed_string("")}));
#else
    TestCapture t;
    EXPECT_DEATH(
        {
            Encoder e(t.counters, t.sink);
            e.add(model::Idle{1, 0, 0});
        },
        "summary");
#endif
}

}  // namespace
}  // namespace apcgate::apc
