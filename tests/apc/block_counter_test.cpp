// Block Counter key sequences (gator-protocol-v6.8.txt, "Block Counter Frame Messages"): key 0
// starts a block at a timestamp (core back to the header's 0, no pid), key 2 switches core, key
// 1 the pid (0 = none); a new frame always starts with key 0. Bytes are hand-written: 1000 =
// E8 07, 2000 = D0 0F, 100 = E4 00, 101 = E5 00.
#include <gtest/gtest.h>

#include "apc_test_support.hpp"
#include "protocol/apc/decoder.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::kBlkA;
using testing::kBlkB;
using testing::TestCapture;

model::CounterSample blk(model::Nanos ts, int core, int key, std::int64_t v, int pid = -1) {
    return model::CounterSample{ts, core, key, v, pid};
}

TEST(BlockCounter, SameTimestampSeveralCores) {
    TestCapture t;
    auto e = t.encoder();
    e.add(blk(1000, 0, kBlkA, 10));
    e.add(blk(1000, 1, kBlkA, 11));
    e.add(blk(1000, 1, kBlkB, 12));
    e.add(blk(2000, 1, kBlkA, 13));
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1],
              Bytes({0x05, 0x00,        // Block Counter frame, header core 0
                     0x00, 0xE8, 0x07,  // timestamp 1000 (core 0: no key 2)
                     0x03, 0x0A,        // key 3 = 10
                     0x02, 0x01,        // core 1
                     0x03, 0x0B, 0x04, 0x0C, 0x00, 0xD0, 0x0F,  // timestamp 2000 resets the core
                     0x02, 0x01, 0x03, 0x0D}));
}

TEST(BlockCounter, PidSwitchesAndNoPid) {
    TestCapture t;
    auto e = t.encoder();
    e.add(blk(1000, 0, kBlkA, 1, 100));
    e.add(blk(1000, 0, kBlkB, 2, 100));
    e.add(blk(1000, 0, kBlkA, 3, 101));
    e.add(blk(1000, 0, kBlkB, 4, -1));  // a pid was set in this block: back to none with 0
    e.add(blk(2000, 0, kBlkA, 5, -1));  // a new block has no pid: nothing to undo
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 2U);
    EXPECT_EQ(t.sink.frames[1], Bytes({0x05, 0x00, 0x00, 0xE8, 0x07,              //
                                       0x01, 0xE4, 0x00, 0x03, 0x01, 0x04, 0x02,  //
                                       0x01, 0xE5, 0x00, 0x03, 0x03,              //
                                       0x01, 0x00, 0x04, 0x04,                    //
                                       0x00, 0xD0, 0x0F, 0x03, 0x05}));
}

TEST(BlockCounter, NewFrameRestartsWithTimestampCoreAndPid) {
    TestCapture t;
    auto e = t.encoder();
    e.add(blk(1000, 2, kBlkA, 1, 100));
    e.flush();
    e.add(blk(1000, 2, kBlkB, 2, 100));
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1],
              Bytes({0x05, 0x00, 0x00, 0xE8, 0x07, 0x02, 0x02, 0x01, 0xE4, 0x00, 0x03, 0x01}));
    EXPECT_EQ(t.sink.frames[2],
              Bytes({0x05, 0x00, 0x00, 0xE8, 0x07, 0x02, 0x02, 0x01, 0xE4, 0x00, 0x04, 0x02}));
}

TEST(BlockCounter, OpenBlockMovesWholeToTheNextFrameWhenFull) {
    TestCapture t;
    auto e = t.encoder(64);
    // 14 blocks of 4 bytes (00 ts 03 v) after the 2-byte header: 58 bytes.
    for (int ts = 1; ts <= 14; ++ts) e.add(blk(ts, 0, kBlkA, 1));
    e.add(blk(15, 0, kBlkA, 1));  // 62 bytes
    e.add(blk(15, 0, kBlkB, 1));  // 64 bytes: exactly the cap
    e.add(blk(15, 1, kBlkA, 1));  // 4 more: the block at ts 15 moves to the next frame
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    Bytes first{0x05, 0x00};
    for (std::uint8_t ts = 1; ts <= 14; ++ts) first.insert(first.end(), {0x00, ts, 0x03, 0x01});
    EXPECT_EQ(t.sink.frames[1], first);
    EXPECT_EQ(t.sink.frames[2],
              Bytes({0x05, 0x00, 0x00, 0x0F, 0x03, 0x01, 0x04, 0x01, 0x02, 0x01, 0x03, 0x01}));
}

TEST(BlockCounter, BlockLargerThanAFrameSplitsAndRestartsWithKey0) {
    TestCapture t;
    auto e = t.encoder(64);
    // Header 2 + timestamp 2 + 15 samples of 4 bytes (02 core 03 value) = 64.
    for (int core = 1; core <= 16; ++core) e.add(blk(5, core, kBlkA, core));
    e.flush();
    ASSERT_EQ(t.sink.frames.size(), 3U);
    EXPECT_EQ(t.sink.frames[1].size(), 64U);
    EXPECT_EQ(t.sink.frames[2], Bytes({0x05, 0x00, 0x00, 0x05, 0x02, 0x10, 0x03, 0x10}));
    // Nothing lost: every value decodes back with its core.
    std::vector<DecodedFrame> frames;
    for (std::size_t i = 1; i < t.sink.frames.size(); ++i)
        frames.push_back(decode_frame(t.sink.frames[i], 0).value());
    auto events = rebuild_events(frames);
    ASSERT_TRUE(events.ok());
    ASSERT_EQ(events->size(), 16U);
    for (int core = 1; core <= 16; ++core) {
        const auto& s = std::get<model::CounterSample>((*events)[core - 1]);
        EXPECT_EQ(s.core, core);
        EXPECT_EQ(s.value, core);
        EXPECT_EQ(s.ts, 5);
    }
}

TEST(BlockCounter, PidZeroMeansNoPid) {
    TestCapture t;
    auto e = t.encoder();
    e.add(blk(1, 0, kBlkA, 7, 0));
    e.flush();
    EXPECT_EQ(t.sink.frames.at(1), Bytes({0x05, 0x00, 0x00, 0x01, 0x03, 0x07}));
}

}  // namespace
}  // namespace apcgate::apc
