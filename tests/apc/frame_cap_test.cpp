// The frame size cap: no body ever exceeds it; annotations and external data are split into
// pieces that join back to the original; names are truncated and backtraces lose outer frames.
#include <gtest/gtest.h>

#include "apc_test_support.hpp"
#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/decoder.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::TestCapture;

constexpr std::size_t kCap = 64;

std::vector<DecodedFrame> decode_all(const std::vector<Bytes>& frames, std::size_t from = 1) {
    std::vector<DecodedFrame> out;
    for (std::size_t i = from; i < frames.size(); ++i) {
        EXPECT_LE(frames[i].size(), kCap) << "frame " << i;
        auto f = decode_frame(frames[i], 0);
        EXPECT_TRUE(f.ok()) << f.error().to_string();
        if (f.ok()) out.push_back(std::move(f).value());
    }
    return out;
}

TEST(FrameCap, LongAnnotationIsSplitIntoMessagesThatJoinBack) {
    TestCapture t;
    auto e = t.encoder(kCap);
    std::string text;
    for (int i = 0; i < 200; ++i) text += static_cast<char>('a' + i % 26);
    const model::Annotation a{1000, 1, 7, model::TextAnnotation{model::Rgb{9, 9, 9}, text}};
    e.add(a);
    e.flush();
    const auto frames = decode_all(t.sink.frames);
    ASSERT_GE(frames.size(), 4U);  // 205 bytes cannot fit fewer than four 64-byte frames
    Bytes joined;
    std::size_t messages = 0;
    for (const auto& f : frames) {
        ASSERT_EQ(f.type, FrameType::Annotate);
        for (const auto& m : f.messages) {
            const auto& am = std::get<AnnotateMessage>(m.body);
            EXPECT_EQ(am.ts, 1000);
            EXPECT_EQ(am.core, 1);
            EXPECT_EQ(am.tid, 7);
            joined.insert(joined.end(), am.bytes.begin(), am.bytes.end());
            ++messages;
        }
    }
    Bytes want;
    append_annotation_bytes(a.body, want);
    EXPECT_EQ(joined, want);
    EXPECT_GE(messages, 4U);
    EXPECT_EQ(e.stats().counts[EncoderStat::SplitPayloads], 1U);
    auto events = rebuild_events(frames);
    ASSERT_TRUE(events.ok());
    ASSERT_EQ(events->size(), 1U);
    const auto& back =
        std::get<model::TextAnnotation>(std::get<model::Annotation>((*events)[0]).body);
    EXPECT_EQ(back.text, text);
}

TEST(FrameCap, AnnotationDoesNotLeaveATinyFragmentAtAFrameEnd) {
    TestCapture t;
    auto e = t.encoder(kCap);
    // Fills the frame to 1 + 4 + 56 = 61 bytes, leaving too little room for a fragment.
    e.add(model::Annotation{1, 0, 0, model::RawAnnotation{Bytes(56, 'x')}});
    e.add(model::Annotation{2, 0, 0, model::TextAnnotation{std::nullopt, std::string(30, 'y')}});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1].size(), 61U);
    EXPECT_EQ(e.stats().counts[EncoderStat::SplitPayloads], 0U);
}

TEST(FrameCap, ExternalDataIsSplitOverFramesOfTheSameId) {
    TestCapture t;
    auto e = t.encoder(kCap);
    Bytes data(200);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
    e.add(model::ExternalData{0, 3, data});
    e.flush();
    const auto frames = decode_all(t.sink.frames);
    ASSERT_EQ(frames.size(), 4U);  // 62 + 62 + 62 + 14
    Bytes joined;
    for (const auto& f : frames) {
        const auto& x = std::get<model::ExternalData>(f.messages.at(0).body);
        EXPECT_EQ(x.id, 3);
        joined.insert(joined.end(), x.bytes.begin(), x.bytes.end());
    }
    EXPECT_EQ(joined, data);
    EXPECT_EQ(t.sink.frames[1].size(), kCap);
    EXPECT_EQ(e.stats().counts[EncoderStat::SplitPayloads], 1U);
}

TEST(FrameCap, NameThatCannotFitIsTruncatedAtUtf8Boundary) {
    TestCapture t;
    auto e = t.encoder(kCap);
    std::string name;
    for (int i = 0; i < 50; ++i) name += "\xC3\xA9";
    e.add(model::ThreadName{1000, 0, 5, name});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    // Header 2 + code, ts, tid 4: 58 bytes left, 1 for the length: 57 cut back to 56.
    EXPECT_EQ(t.sink.frames[1].size(), 2U + 4U + 1U + 56U);
    const auto frames = decode_all(t.sink.frames);
    const auto& tn = std::get<model::ThreadName>(frames.at(0).messages.at(0).body);
    EXPECT_EQ(tn.name, name.substr(0, 56));
    EXPECT_EQ(e.stats().counts[EncoderStat::TruncatedNames], 1U);
}

TEST(FrameCap, ProcCommStringsShareTheRoom) {
    TestCapture t;
    auto e = t.encoder(kCap);
    e.add(model::ProcComm{0, 0, 1, 2, std::string(100, 'i'), "short"});
    e.add(model::ProcComm{0, 0, 1, 2, std::string(100, 'i'), std::string(100, 'c')});
    e.flush();
    const auto frames = decode_all(t.sink.frames);
    ASSERT_EQ(frames.size(), 2U);
    const auto& a = std::get<model::ProcComm>(frames[0].messages.at(0).body);
    EXPECT_EQ(a.comm, "short");
    EXPECT_GT(a.image.size(), 40U);
    const auto& b = std::get<model::ProcComm>(frames[1].messages.at(0).body);
    EXPECT_GT(b.image.size(), 20U);
    EXPECT_GT(b.comm.size(), 20U);
    EXPECT_EQ(e.stats().counts[EncoderStat::TruncatedNames], 3U);
}

TEST(FrameCap, BacktraceTooDeepLosesOuterFrames) {
    TestCapture t;
    auto e = t.encoder(kCap);
    model::Backtrace bt{1000, 0, 7, 100, 101, {}};
    for (int i = 0; i < 20; ++i) bt.frames.push_back({5, 0x400000 + i});
    e.add(bt);
    e.flush();
    const auto frames = decode_all(t.sink.frames);
    ASSERT_EQ(frames.size(), 1U);
    // Header 2 + ts/exec/pid/tid 7 + End of Message 1 leave 54 bytes: 10 frames of 5 bytes.
    const auto& m = std::get<BacktraceMessage>(frames[0].messages.at(0).body);
    EXPECT_TRUE(m.end_of_message);
    ASSERT_EQ(m.backtrace.frames.size(), 10U);
    for (int i = 0; i < 10; ++i) EXPECT_EQ(m.backtrace.frames[i].offset, 0x400000 + i);
    EXPECT_EQ(t.sink.frames[1].size(), 60U);
    EXPECT_EQ(e.stats().counts[EncoderStat::TruncatedBacktraces], 1U);
}

TEST(FrameCap, FixedMessagesFillFramesExactlyToTheCap) {
    TestCapture t;
    auto e = t.encoder(kCap);
    // Idle messages of 3 bytes (state, ts < 64, core) after a 1-byte header: 21 fill 64.
    for (int i = 0; i < 22; ++i) e.add(model::Idle{i, 0, 0});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1].size(), 64U);
    EXPECT_EQ(t.sink.frames[2].size(), 4U);
}

TEST(FrameCap, CapsBelowTheMinimumAreRaised) {
    TestCapture t;
    auto e = t.encoder(8);
    e.add(model::ActivitySwitch{INT64_MAX, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN,
                                model::WaitState::Io});
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1].size(), 1U + 1U + 10U + 5U * 4U + 1U);
}

}  // namespace
}  // namespace apcgate::apc
