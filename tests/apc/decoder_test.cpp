// The decoder on hand-built bodies: message offsets, errors on truncated and corrupt input
// (offset, record, field), the capture-file splitter and the text formatter.
#include <gtest/gtest.h>

#include "apc_test_support.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "protocol/apc/message_format.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::cat;
using testing::packed_string;
using testing::raw;

TEST(DecodeFrame, NameFrameMessagesWithOffsets) {
    const Bytes body = cat({{0x03, 0x02, 0x01, 0x05},
                            packed_string("ab"),
                            {0x02, 0xE8, 0x07, 0xAC, 0x02},
                            packed_string("t")});
    auto f = decode_frame(body, 100);
    ASSERT_TRUE(f.ok()) << f.error().to_string();
    EXPECT_EQ(f->type, FrameType::Name);
    EXPECT_EQ(f->core, 2);
    EXPECT_EQ(f->offset, 100U);
    EXPECT_EQ(f->size, body.size());
    ASSERT_EQ(f->messages.size(), 2U);
    EXPECT_EQ(f->messages[0].offset, 102U);
    const auto& c = std::get<model::CookieName>(f->messages[0].body);
    EXPECT_EQ(c.cookie, 5);
    EXPECT_EQ(c.name, "ab");
    EXPECT_EQ(c.core, 2);
    EXPECT_EQ(f->messages[1].offset, 107U);
    const auto& t = std::get<model::ThreadName>(f->messages[1].body);
    EXPECT_EQ(t.ts, 1000);
    EXPECT_EQ(t.tid, 300);
    EXPECT_EQ(t.name, "t");
}

TEST(DecodeFrame, SummaryAndBacktrace) {
    const Bytes summary = cat({{0x01, 0x01},
                               packed_string("1\n2\r\n3\r4\n\r5"),
                               {0xE8, 0x07, 0x05, 0x7F},
                               packed_string("k"),
                               packed_string("v"),
                               packed_string(""),
                               {0x03, 0x01, 0x83, 0x1A},
                               packed_string("A53")});
    auto s = decode_frame(summary, 0);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    ASSERT_EQ(s->messages.size(), 2U);
    const auto& m = std::get<SummaryMessage>(s->messages[0].body);
    EXPECT_EQ(m.canary, kNewlineCanary);
    EXPECT_EQ(m.wallclock_ns, 1000);
    EXPECT_EQ(m.uptime_ns, 5);
    EXPECT_EQ(m.monotonic_delta_ns, -1);
    ASSERT_EQ(m.attributes.size(), 1U);
    EXPECT_EQ(m.attributes[0], std::make_pair(std::string("k"), std::string("v")));
    const auto& core = std::get<model::CoreName>(s->messages[1].body);
    EXPECT_EQ(core.cpuid, 0xd03);
    EXPECT_EQ(core.name, "A53");

    const Bytes bt{0x02, 0x03, 0x0A, 0x07, 0x01, 0x02, 0x00, 0x80, 0x80, 0x80,
                   0x02, 0x7F, 0x40, 0x01, 0x0B, 0x07, 0x01, 0x02, 0x01};
    auto b = decode_frame(bt, 0);
    ASSERT_TRUE(b.ok()) << b.error().to_string();
    ASSERT_EQ(b->messages.size(), 2U);
    const auto& m1 = std::get<BacktraceMessage>(b->messages[0].body);
    EXPECT_TRUE(m1.end_of_message);
    EXPECT_EQ(m1.backtrace.core, 3);
    ASSERT_EQ(m1.backtrace.frames.size(), 2U);
    EXPECT_EQ(m1.backtrace.frames[0].offset, 0x400000);
    EXPECT_EQ(m1.backtrace.frames[1].cookie, -1);
    EXPECT_EQ(m1.backtrace.frames[1].offset, -64);
    EXPECT_EQ(b->messages[1].offset, 14U);
    EXPECT_TRUE(std::get<BacktraceMessage>(b->messages[1].body).backtrace.frames.empty());
}

TEST(DecodeFrame, TruncatedCounterNamesOffsetRecordAndField) {
    const Bytes body{0x04, 0xE8, 0x07, 0x01, 0x05};  // value missing
    auto f = decode_frame(body, 1000);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(*f.error().offset, 1005U);
    EXPECT_EQ(f.error().record, "Counter message");
    EXPECT_EQ(f.error().field, "value");
    EXPECT_NE(f.error().to_string().find("Counter frame at offset 1000"), std::string::npos);
}

TEST(DecodeFrame, CorruptBodies) {
    auto unknown = decode_frame(Bytes{0x08, 0x00}, 50);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(*unknown.error().offset, 50U);
    EXPECT_EQ(unknown.error().field, "frame code");

    auto empty = decode_frame(Bytes{}, 7);
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(*empty.error().offset, 7U);

    auto code = decode_frame(Bytes{0x03, 0x00, 0x03}, 0);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(*code.error().offset, 2U);
    EXPECT_EQ(code.error().record, "Name frame message");
    EXPECT_EQ(code.error().field, "message code");

    auto size = decode_frame(Bytes{0x06, 0x00, 0x00, 0x00, 0x7F}, 0);
    ASSERT_FALSE(size.ok());
    EXPECT_EQ(size.error().record, "Annotate message");
    EXPECT_EQ(size.error().field, "size");

    auto overrun = decode_frame(Bytes{0x06, 0x00, 0x00, 0x00, 0x05, 'a'}, 0);
    ASSERT_FALSE(overrun.ok());
    EXPECT_EQ(*overrun.error().offset, 5U);
    EXPECT_EQ(overrun.error().field, "body");

    Bytes long_ts{0x09, 0x00};
    long_ts.insert(long_ts.end(), 11, 0x80);
    auto packed = decode_frame(long_ts, 0);
    ASSERT_FALSE(packed.ok());
    EXPECT_EQ(*packed.error().offset, 2U);
    EXPECT_EQ(packed.error().field, "timestamp");

    auto ext = decode_frame(Bytes{0x0A, 0x7E, 'x'}, 0);
    ASSERT_FALSE(ext.ok());
    EXPECT_EQ(ext.error().field, "id");

    auto string = decode_frame(cat({{0x0B, 0x00, 0x01, 0x02, 0x05}, raw("ab")}), 20);
    ASSERT_FALSE(string.ok());
    EXPECT_EQ(*string.error().offset, 25U);
    EXPECT_EQ(string.error().field, "image");
}

Bytes with_length(const Bytes& body) {
    const auto n = static_cast<std::uint32_t>(body.size());
    Bytes out{static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
              static_cast<std::uint8_t>(n >> 16), static_cast<std::uint8_t>(n >> 24)};
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

TEST(CaptureStream, SplitsFramesWithOffsets) {
    const Bytes a{0x09, 0x00, 0x01, 0x00};
    const Bytes b{0x0A, 0x7F, 0x02};
    Bytes file = with_length(a);
    const Bytes fb = with_length(b);
    file.insert(file.end(), fb.begin(), fb.end());
    CaptureSplitter split(file, 1000);
    auto f1 = split.next();
    ASSERT_TRUE(f1.has_value());
    EXPECT_EQ(f1->offset, 1000U);
    EXPECT_EQ(f1->body_offset, 1004U);
    EXPECT_EQ(Bytes(f1->body.begin(), f1->body.end()), a);
    auto f2 = split.next();
    ASSERT_TRUE(f2.has_value());
    EXPECT_EQ(f2->offset, 1008U);
    EXPECT_FALSE(split.next().has_value());
    EXPECT_EQ(split.end(), StreamEnd::Clean);
    EXPECT_FALSE(split.error().has_value());
    EXPECT_EQ(split.consumed(), file.size());
}

TEST(CaptureStream, TruncatedLastFrameIsNotCorruption) {
    Bytes cut_prefix = with_length({0x09, 0x00, 0x01, 0x00});
    cut_prefix.insert(cut_prefix.end(), {0x05, 0x00});
    CaptureSplitter s1(cut_prefix);
    ASSERT_TRUE(s1.next().has_value());
    EXPECT_FALSE(s1.next().has_value());
    EXPECT_EQ(s1.end(), StreamEnd::Truncated);
    EXPECT_EQ(*s1.error()->offset, 8U);

    Bytes cut_body = with_length({0x09, 0x00, 0x01, 0x00});
    cut_body.insert(cut_body.end(), {0x0A, 0x00, 0x00, 0x00, 0x09, 0x00});
    const auto d = decode_capture(cut_body);
    EXPECT_EQ(d.frames.size(), 1U);
    EXPECT_EQ(d.end, StreamEnd::Truncated);
    ASSERT_TRUE(d.error.has_value());
    EXPECT_EQ(*d.error->offset, 12U);  // where the missing bytes should have been
    EXPECT_EQ(d.error->field, "body");
}

TEST(CaptureStream, NegativeOrHugeLengthIsCorrupt) {
    Bytes neg = with_length({0x09, 0x00, 0x01, 0x00});
    neg.insert(neg.end(), {0xFF, 0xFF, 0xFF, 0xFF, 0x00});
    CaptureSplitter s1(neg, 10);
    ASSERT_TRUE(s1.next().has_value());
    EXPECT_FALSE(s1.next().has_value());
    EXPECT_EQ(s1.end(), StreamEnd::Corrupt);
    EXPECT_EQ(*s1.error()->offset, 18U);
    EXPECT_EQ(s1.error()->field, "length");

    const Bytes huge{0x01, 0x00, 0x00, 0x04};  // 64 MiB + 1
    CaptureSplitter s2(huge);
    EXPECT_FALSE(s2.next().has_value());
    EXPECT_EQ(s2.end(), StreamEnd::Corrupt);
    const Bytes max{0x00, 0x00, 0x00, 0x04, 0x01};  // 64 MiB is allowed, just cut short
    CaptureSplitter s3(max);
    EXPECT_FALSE(s3.next().has_value());
    EXPECT_EQ(s3.end(), StreamEnd::Truncated);
}

TEST(CaptureStream, DecodeCaptureStopsAtTheFirstBadFrame) {
    Bytes file = with_length({0x09, 0x00, 0x01, 0x00});
    const Bytes bad = with_length({0x04, 0x01});
    file.insert(file.end(), bad.begin(), bad.end());
    const auto d = decode_capture(file);
    EXPECT_EQ(d.frames.size(), 1U);
    ASSERT_TRUE(d.error.has_value());
    EXPECT_EQ(*d.error->offset, 14U);  // after the Counter frame's timestamp
    EXPECT_EQ(d.error->field, "core");
}

TEST(MessageFormat, OneLinePerMessage) {
    const DecodedMessage counter{0x123, model::CounterSample{1000, 0, 3, 42, -1}};
    EXPECT_EQ(format_message(counter), "0x00000123 Counter ts=1000 core=0 key=3 value=42");
    EXPECT_EQ(format_message({0x10, BlockEntry{0, 5}}), "0x00000010 BlockCounter timestamp=5");
    EXPECT_EQ(format_message({0x10, BlockEntry{7, -3}}), "0x00000010 BlockCounter key=7 value=-3");
    EXPECT_EQ(format_message({0, model::ThreadName{1, 2, 3, "a\"b\n\x01"}}),
              "0x00000000 ThreadName ts=1 core=2 tid=3 name=\"a\\\"b\\n\\x01\"");
    EXPECT_EQ(format_message({0, model::ExternalData{0, 4, {0xAB, 0x01}}}),
              "0x00000000 External id=4 size=2 bytes=ab01");
    EXPECT_EQ(format_message({0, DisconnectMessage{4, 0}}), "0x00000000 ExternalDisconnect id=4");

    auto f = decode_frame(Bytes{0x07, 0x01, 0x01, 0x0A, 0x05, 0x02, 0x02, 0x0B, 0x05}, 0x40);
    ASSERT_TRUE(f.ok());
    std::string out;
    format_frame(*f, out);
    EXPECT_EQ(out,
              "0x00000040 frame SchedTrace core=1 size=9 messages=2\n"
              "0x00000042 SchedSwitch ts=10 core=1 tid=5 state=2\n"
              "0x00000046 SchedThreadExit ts=11 core=1 tid=5\n");
}

}  // namespace
}  // namespace apcgate::apc
