// Record area geometry, block splitting and record parsing: linear and circular stores
// (monotonic offsets, padding at the wrap, trailing bytes), every record type 1-9, and the bad
// blocks the reader must report with their offset and kind.
#include "collectors/barman/records.hpp"

#include <gtest/gtest.h>

#include <tuple>
#include <utility>

#include "collectors/barman/barman_source.hpp"
#include "store_builder.hpp"
#include "tests/ingest/source_runner.hpp"

namespace apcgate::collectors::barman {
namespace {

using barman_test::StoreBuilder;
using barman_test::StoreConfig;
using ingest_test::write_temp;

StoreBuilder builder(StoreConfig c = {}) {
    c.custom_series = c.custom_series == 0 ? 2 : c.custom_series;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU, 0x08, 0x11});
    b.chart("chart", 1, 2, 0);
    b.series(0, "a", "", 0xffffffffU, 1.0, 3, 2, 0);
    b.series(0, "b", "", 0xffffffffU, 1.0, 1, 1, 1);
    return b;
}

struct Decoded {
    std::vector<Block> blocks;  // spans are not kept valid: use the fields copied below
    std::vector<bool> padding;
    std::vector<std::uint32_t> types;
    std::vector<std::uint64_t> timestamps;
    std::vector<Error> bad;
    std::optional<Error> stop;
};

Decoded decode(const std::vector<std::uint8_t>& file, const std::string& name) {
    Decoded d;
    auto loaded = BarmanSource::load(write_temp(name, file));
    EXPECT_TRUE(loaded) << loaded.error().to_string();
    if (!loaded) return d;
    BlockReader reader(loaded->file, loaded->geometry, loaded->header.preamble.abi,
                       64);  // tiny windows
    RecordParser parser(loaded->header);
    Block b;
    BlockReader::Step step;
    while ((step = reader.next(b)) == BlockReader::Step::Block) {
        d.padding.push_back(b.padding);
        if (b.padding) continue;
        auto r = parser.parse(b.data, b.data_file_offset);
        if (!r) {
            d.bad.push_back(r.error());
            continue;
        }
        std::visit(
            [&](const auto& v) {
                if constexpr (std::is_pointer_v<std::decay_t<decltype(v)>>) {
                    d.types.push_back(v->header.type);
                    d.timestamps.push_back(v->header.timestamp);
                } else {
                    d.types.push_back(v.header.type);
                    d.timestamps.push_back(v.header.timestamp);
                }
            },
            *r);
    }
    if (step == BlockReader::Step::Stopped) d.stop = reader.error();
    return d;
}

TEST(BarmanRecords, LinearStoreYieldsEveryRecordType) {
    StoreBuilder b = builder();
    b.sample(0, 10, 1, std::nullopt, {1, 2, 3}, {{1, 5}});
    b.sample(0, 20, 1, 0x400, {4, 5, 6});
    b.task_switch(0, 30, 2, 1);
    b.custom(0, 40, 2, 0, 99);
    b.annotation(0, 50, 2, 0, 3, 0, 0, "hello");
    b.halt(0, 60, true);
    b.halt(0, 61, false);
    b.block(b.record(7, 0, 70).data);  // then the pc, below
    b.block({}, true);                 // a padding block
    const auto file = b.linear(1024);
    const Decoded d = decode(file, "types.raw");
    ASSERT_FALSE(d.stop) << d.stop->to_string();
    // The type 7 block above has no pc: it is reported, the others decode.
    EXPECT_EQ(d.types, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 6}));
    ASSERT_EQ(d.bad.size(), 1U);
    EXPECT_EQ(d.bad[0].record, "PC sample without task id");
    EXPECT_EQ(d.padding.back(), true);
}

TEST(BarmanRecords, ParsesVersionThreeRecordsAndSampleFields) {
    StoreBuilder b = builder();
    auto pc = b.record(7, 0, 5);
    pc.u64(0x401234);
    b.block(pc.data);
    auto counter = b.record(8, 0, 6);
    counter.u32(1);
    counter.u64(77);
    b.block(counter.data);
    auto warning = b.record(9, 0, 7);
    warning.text("anything");
    b.block(warning.data);
    b.sample(0, 8, 3, 0x4242, {10, 20, 30}, {{0, 1}, {1, 2}});
    auto loaded = BarmanSource::load(write_temp("v3.raw", b.linear(512)));
    ASSERT_TRUE(loaded);
    BlockReader reader(loaded->file, loaded->geometry, loaded->header.preamble.abi);
    RecordParser parser(loaded->header);
    Block blk;
    ASSERT_EQ(reader.next(blk), BlockReader::Step::Block);
    auto r = parser.parse(blk.data, blk.data_file_offset);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::get<PcSampleRecord>(*r).pc, 0x401234U);
    ASSERT_EQ(reader.next(blk), BlockReader::Step::Block);
    r = parser.parse(blk.data, blk.data_file_offset);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::get<CustomCounterRecord>(*r).value, 77U);
    EXPECT_FALSE(std::get<CustomCounterRecord>(*r).task.has_value());
    ASSERT_EQ(reader.next(blk), BlockReader::Step::Block);
    r = parser.parse(blk.data, blk.data_file_offset);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::get<WarningRecord>(*r).body_bytes, 8U);
    ASSERT_EQ(reader.next(blk), BlockReader::Step::Block);
    r = parser.parse(blk.data, blk.data_file_offset);
    ASSERT_TRUE(r);
    const SampleRecord& s = *std::get<const SampleRecord*>(*r);
    EXPECT_EQ(s.task, 3U);
    EXPECT_EQ(s.pc, 0x4242U);
    EXPECT_EQ(s.pmu, (std::vector<std::uint64_t>{10, 20, 30}));
    ASSERT_EQ(s.custom.size(), 2U);
    EXPECT_EQ(s.custom[1].value, 2U);
    EXPECT_EQ(reader.next(blk), BlockReader::Step::End);
}

TEST(BarmanRecords, BadRecordsAreReportedWithOffsetAndKind) {
    StoreBuilder b = builder();
    b.sample(0, 1, 1, std::nullopt, {1, 2, 3});
    b.block(b.record(42, 0, 2).data);        // unknown type
    b.sample(3, 3, 1, std::nullopt, {1});    // core 3 >= max_cores (2)
    b.sample(1, 4, 1, std::nullopt, {});     // core 1 has no PMU settings
    b.custom(0, 5, 1, 7, 1);                 // series 7 does not exist
    b.annotation(0, 6, 1, 9, 0, 0, 0, "x");  // annotation type 9
    b.block({1, 2, 3});                      // too short for a record header
    b.sample(0, 8, 1, std::nullopt, {4, 5, 6});
    const auto file = b.linear(2048);
    const Decoded d = decode(file, "bad.raw");
    EXPECT_FALSE(d.stop);
    EXPECT_EQ(d.types, (std::vector<std::uint32_t>{1, 1}));
    EXPECT_EQ(d.timestamps, (std::vector<std::uint64_t>{1, 8}));
    ASSERT_EQ(d.bad.size(), 6U);
    EXPECT_NE(d.bad[0].message.find("unknown record type 42"), std::string::npos);
    EXPECT_EQ(d.bad[0].record, "unknown record type");
    EXPECT_NE(d.bad[1].message.find("core 3 is not below max_cores 2"), std::string::npos)
        << d.bad[1].message;
    EXPECT_NE(d.bad[2].message.find("no PMU settings"), std::string::npos) << d.bad[2].message;
    EXPECT_EQ(d.bad[2].record, "counter sample");
    EXPECT_NE(d.bad[3].message.find("custom counter 7"), std::string::npos);
    EXPECT_NE(d.bad[4].message.find("annotation type 9"), std::string::npos);
    EXPECT_EQ(d.bad[5].record, "record block");
    for (const auto& e : d.bad) EXPECT_EQ(e.kind, ErrorKind::Malformed) << e.to_string();
    // Offsets point into the file, inside the record area, in increasing order.
    auto loaded = BarmanSource::load(write_temp("bad.raw", file));
    for (std::size_t i = 0; i < d.bad.size(); ++i) {
        ASSERT_TRUE(d.bad[i].offset.has_value());
        EXPECT_GE(*d.bad[i].offset, loaded->header.store.record_area);
        if (i > 0) {
            EXPECT_GT(*d.bad[i].offset, *d.bad[i - 1].offset);
        }
    }
}

TEST(BarmanRecords, BlockLengthPastTheDataStopsWithEarlierRecordsKept) {
    StoreBuilder b = builder();
    b.sample(0, 1, 1, std::nullopt, {1, 2, 3});
    b.sample(0, 2, 1, std::nullopt, {1, 2, 3});
    auto file = b.linear(512);
    auto loaded = BarmanSource::load(write_temp("len.raw", file));
    ASSERT_TRUE(loaded);
    // Corrupt the second block's length: the first block is 8 + 48 bytes (header, task id,
    // custom count, three counters).
    const std::size_t second = loaded->header.store.record_area + 56;
    file[second + 1] = 0x7f;
    const Decoded d = decode(file, "len.raw");
    EXPECT_EQ(d.types, (std::vector<std::uint32_t>{1}));
    ASSERT_TRUE(d.stop);
    EXPECT_EQ(d.stop->offset, second);
    EXPECT_EQ(d.stop->record, "record block");
    EXPECT_NE(d.stop->message.find("runs past the end of the record data"), std::string::npos)
        << d.stop->message;
    EXPECT_EQ(d.stop->kind, ErrorKind::Malformed);  // the file is whole: the length is wrong
}

TEST(BarmanRecords, CircularStoreUnwrapsMonotonicOffsetsAndWrapPadding) {
    StoreBuilder b = builder();
    for (std::uint64_t i = 0; i < 100; ++i) b.sample(0, 100 + i, 1, std::nullopt, {i, i, i});
    const auto file = b.circular(1000);  // 56-byte blocks: wraps several times, pads at the end
    auto loaded = BarmanSource::load(write_temp("ring.raw", file));
    ASSERT_TRUE(loaded);
    EXPECT_GT(loaded->header.store.read_offset, 1000U);
    EXPECT_TRUE(loaded->geometry.evicted);
    const Decoded d = decode(file, "ring.raw");
    ASSERT_FALSE(d.stop) << d.stop->to_string();
    ASSERT_FALSE(d.timestamps.empty());
    // The newest records, oldest first, none missing in between.
    EXPECT_EQ(d.timestamps.back(), 199U);
    for (std::size_t i = 1; i < d.timestamps.size(); ++i)
        EXPECT_EQ(d.timestamps[i], d.timestamps[i - 1] + 1);
    EXPECT_GE(d.timestamps.size(), 14U);
    EXPECT_TRUE(d.bad.empty());
}

TEST(BarmanRecords, CircularStoreSkipsTrailingBytesBeforeTheWrap) {
    // A ring whose length is not a multiple of the pointer size (a third-party writer): the
    // last 5 bytes before the physical end cannot hold a length and are skipped.
    StoreBuilder b = builder();
    b.halt(0, 1, true);
    const auto blocks = b.encoded_blocks();  // one 32-byte block
    ASSERT_EQ(blocks.size(), 32U);
    const std::uint64_t ring = 8 * 4 + 5;  // block, 5 trailing bytes
    // read at physical 32 (after one old block), then the trailing bytes, then 32 bytes at 0.
    auto file = b.header(2, ring, 1 * ring + 32, 32, 2 * ring);
    file.resize((file.size() + 7) & ~std::size_t{7});
    const std::size_t area = file.size();
    file.resize(area + ring, 0xee);
    std::copy(blocks.begin(), blocks.end(), file.begin() + static_cast<std::ptrdiff_t>(area));
    const Decoded d = decode(file, "trailing.raw");
    ASSERT_FALSE(d.stop) << d.stop->to_string();
    EXPECT_EQ(d.types, (std::vector<std::uint32_t>{6}));
}

TEST(BarmanRecords, CircularStoreWithPhysicalOffsetsAlsoReads) {
    // Offsets already reduced (the spec's prose): write < read means the data wraps.
    StoreBuilder b = builder();
    b.halt(0, 1, true);
    b.halt(0, 2, false);
    const auto blocks = b.encoded_blocks();  // two 32-byte blocks
    const std::uint64_t ring = 96;
    auto file = b.header(2, ring, 32, 64, 128);
    file.resize((file.size() + 7) & ~std::size_t{7});
    const std::size_t area = file.size();
    file.resize(area + ring, 0);
    std::copy(blocks.begin(), blocks.begin() + 32,
              file.begin() + static_cast<std::ptrdiff_t>(area + 64));
    std::copy(blocks.begin() + 32, blocks.end(), file.begin() + static_cast<std::ptrdiff_t>(area));
    const Decoded d = decode(file, "physical.raw");
    ASSERT_FALSE(d.stop) << d.stop->to_string();
    EXPECT_EQ(d.timestamps, (std::vector<std::uint64_t>{1, 2}));
}

TEST(BarmanRecords, TruncatedDumpReadsWhatTheFileHolds) {
    StoreBuilder b = builder();
    for (std::uint64_t i = 0; i < 10; ++i) b.sample(0, i, 1, std::nullopt, {i, i, i});
    auto file = b.linear(4096);
    auto loaded = BarmanSource::load(write_temp("whole.raw", file));
    ASSERT_TRUE(loaded);
    file.resize(loaded->header.store.record_area + std::size_t{56} * 4 +
                10);  // 4 whole blocks and a bit
    auto cut = BarmanSource::load(write_temp("cut.raw", file));
    ASSERT_TRUE(cut);
    ASSERT_TRUE(cut->geometry.truncated.has_value());
    EXPECT_NE(cut->geometry.truncated->message.find("the file ends at byte"), std::string::npos);
    EXPECT_EQ(cut->geometry.truncated->kind, ErrorKind::Truncated);
    const Decoded d = decode(file, "cut.raw");
    EXPECT_EQ(d.types.size(), 4U);
    ASSERT_TRUE(d.stop);  // the fifth block's length runs past what the file holds
    EXPECT_EQ(d.stop->kind, ErrorKind::Truncated);  // because the file was cut there
}

TEST(BarmanRecords, InconsistentLinearOffsetsAreClampedAndReported) {
    StoreBuilder b = builder();
    b.halt(0, 1, true);
    auto file = b.header(1, 64, 500, 0, 500);  // write_offset past buffer_length
    file.resize(((file.size() + 7) & ~std::size_t{7}) + 64, 0);
    auto loaded = BarmanSource::load(write_temp("clamp.raw", file));
    ASSERT_TRUE(loaded);
    ASSERT_EQ(loaded->store_problems.size(), 1U);
    EXPECT_EQ(loaded->store_problems[0].field, "write_offset");
    EXPECT_EQ(loaded->geometry.data_length, 64U);
}

// Where each block is, for comparing splits: file offset, length, padding.
using Split = std::vector<std::tuple<std::uint64_t, std::uint64_t, bool>>;

Split split(const BarmanSource::Loaded& loaded, std::size_t chunk, std::optional<Error>& stop) {
    BlockReader reader(loaded.file, loaded.geometry, loaded.header.preamble.abi, chunk);
    Split s;
    Block b;
    while (reader.next(b) == BlockReader::Step::Block)
        s.emplace_back(b.file_offset, b.length, b.padding);
    stop = reader.error();
    return s;
}

TEST(BarmanRecords, BlocksAreTheSameWhateverTheWindowHolds) {
    // The tokenizer splits a block the window holds inline and leaves every other case (a block
    // cut by the window's end, the wrap point, the end of the data) to its checked path: every
    // window size, down to one byte, must give the blocks one window for everything gives.
    for (const bool circular : {false, true}) {
        StoreBuilder b = builder();
        for (std::uint64_t i = 0; i < 40; ++i) {
            b.sample(0, 10 * i, 1, std::nullopt, {i, 2 * i, 3 * i});
            b.annotation(0, 10 * i + 1, 1, 0, 1, 0, 0, std::string(i % 7, 'x'));
            b.halt(0, 10 * i + 2, i % 2 == 0);
        }
        const auto file = circular ? b.circular(1000) : b.linear(8192);
        auto loaded = BarmanSource::load(write_temp("windows.raw", file));
        ASSERT_TRUE(loaded) << loaded.error().to_string();
        std::optional<Error> whole_stop;
        const Split whole = split(*loaded, 1u << 20, whole_stop);
        ASSERT_FALSE(whole_stop) << whole_stop->to_string();
        ASSERT_GT(whole.size(), 10U);
        std::vector<std::pair<bool, std::uint64_t>> expected;  // padding, length
        for (const auto& [offset, length, padding] : whole) expected.emplace_back(padding, length);
        for (std::size_t chunk = 1; chunk <= 200; ++chunk) {
            std::optional<Error> stop;
            EXPECT_EQ(split(*loaded, chunk, stop), whole) << "chunk " << chunk;
            EXPECT_FALSE(stop) << "chunk " << chunk;
            // scan() (the survey's pass) gives the same blocks, in its loop and through next().
            BlockReader reader(loaded->file, loaded->geometry, loaded->header.preamble.abi, chunk);
            std::vector<std::pair<bool, std::uint64_t>> scanned;
            const auto end = reader.scan([&](bool padding, std::span<const std::uint8_t> data) {
                scanned.emplace_back(padding, data.size());
            });
            EXPECT_EQ(end, BlockReader::Step::End) << "chunk " << chunk;
            EXPECT_EQ(scanned, expected) << "chunk " << chunk;
        }
    }
}

TEST(BarmanRecords, BlockLengthPastTheDataStopsAtTheSameBlockWhateverTheWindow) {
    StoreBuilder b = builder();
    for (std::uint64_t i = 0; i < 8; ++i) b.sample(0, i, 1, std::nullopt, {1, 2, 3});
    auto file = b.linear(1024);
    auto loaded = BarmanSource::load(write_temp("cut.raw", file));
    ASSERT_TRUE(loaded);
    // The fifth block's length (blocks are 8 + 48 bytes) runs past the data.
    const std::size_t fifth = loaded->header.store.record_area + std::size_t{4} * 56;
    file[fifth + 1] = 0x7f;
    loaded = BarmanSource::load(write_temp("cut.raw", file));
    ASSERT_TRUE(loaded);
    for (const std::size_t chunk :
         {std::size_t{1}, std::size_t{7}, std::size_t{56}, std::size_t{57}, std::size_t{1} << 20}) {
        std::optional<Error> stop;
        EXPECT_EQ(split(*loaded, chunk, stop).size(), 4U) << "chunk " << chunk;
        ASSERT_TRUE(stop) << "chunk " << chunk;
        EXPECT_EQ(stop->offset, fifth);
        BlockReader reader(loaded->file, loaded->geometry, loaded->header.preamble.abi, chunk);
        std::size_t scanned = 0;
        EXPECT_EQ(reader.scan([&](bool, std::span<const std::uint8_t>) { ++scanned; }),
                  BlockReader::Step::Stopped);
        EXPECT_EQ(scanned, 4U) << "chunk " << chunk;
        ASSERT_TRUE(reader.error());
        EXPECT_EQ(reader.error()->offset, fifth);
    }
}

}  // namespace
}  // namespace apcgate::collectors::barman
