// The header reader on the agent's real buffers (64-bit LE and 32-bit BE, whose layouts differ
// by pointer size) and on hand-built headers for what no shared file has: a 64-bit big-endian
// target, no task infos, no custom charts, an ABI aligning u64 to 4, old protocol versions and
// hostile constants.
#include "collectors/barman/header.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "collectors/barman/barman_source.hpp"
#include "store_builder.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::barman {
namespace {

using barman_test::StoreBuilder;
using barman_test::StoreConfig;

const std::string kDir = std::string(apcgate::test_paths::testdata_dir()) + "/barman/";

std::vector<std::uint8_t> slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

Header parse(const std::vector<std::uint8_t>& file) {
    auto h = read_header(file, file.size());
    EXPECT_TRUE(h) << h.error().to_string();
    return h ? *h : Header{};
}

Error parse_error(const std::vector<std::uint8_t>& file) {
    auto h = read_header(file, file.size());
    EXPECT_FALSE(h);
    return h ? Error::at(ErrorKind::Internal, "parsed") : h.error();
}

void expect_generator_header(const Header& h) {
    EXPECT_EQ(h.preamble.version, 3U);
    const ConfigConstants& c = h.constants();
    EXPECT_EQ(c.max_cores, 4U);
    EXPECT_EQ(c.max_task_infos, 8U);
    EXPECT_EQ(c.max_mmap_layouts, 4U);
    EXPECT_EQ(c.max_pmu_counters, 4U);
    EXPECT_EQ(c.max_string_table_length, 1024U);
    EXPECT_EQ(c.num_custom_counters, 3U);
    EXPECT_EQ(h.preamble.clock.multiplier, 1U);
    EXPECT_EQ(h.preamble.clock.divisor, 1U);
    EXPECT_EQ(h.preamble.timer_sample_rate, 1000U);
    EXPECT_EQ(h.target_name, "realdata-host");
    ASSERT_EQ(h.cores.size(), 4U);
    EXPECT_EQ(h.cores[0].midr, 0x410fd034U);
    EXPECT_EQ(h.cores[0].mpidr, 0x80000000U);
    EXPECT_EQ(h.cores[1].mpidr, 0x80000001U);
    EXPECT_EQ(h.cores[1].configuration_timestamp, 8007U);
    EXPECT_EQ(h.cores[0].counter_types, (std::vector<std::uint32_t>{0xffffffffU, 0x08, 0x11}));
    EXPECT_FALSE(h.cores[2].configured());
    ASSERT_EQ(h.tasks.size(), 4U);
    EXPECT_EQ(h.tasks[0].name, "idle");
    EXPECT_EQ(h.tasks[1].name, "worker-A");
    EXPECT_EQ(h.tasks[3].task_id, 4U);
    EXPECT_EQ(h.tasks[3].name, "late-task");
    EXPECT_EQ(h.tasks[3].timestamp, 152000U);
    ASSERT_EQ(h.mmaps.size(), 2U);
    EXPECT_EQ(h.mmaps[0].image, "app.axf");
    EXPECT_EQ(h.mmaps[0].task_id, 2U);
    EXPECT_EQ(h.mmaps[0].base_address, 0x400000U);
    EXPECT_EQ(h.mmaps[0].length, 0x10000U);
    EXPECT_EQ(h.mmaps[1].image, "lib.axf");
    EXPECT_EQ(h.mmaps[1].image_offset, 0x1000U);
    ASSERT_EQ(h.charts.size(), 2U);
    EXPECT_EQ(h.charts[0].name, "queue");
    EXPECT_EQ(h.charts[1].name, "temp");
    EXPECT_EQ(h.charts[1].flags, 0x08);  // per cpu
    ASSERT_EQ(h.series.size(), 3U);
    EXPECT_EQ(h.series[0].name, "depth");
    EXPECT_EQ(h.series[0].units, "items");
    EXPECT_EQ(h.series[0].description, "queue depth");
    EXPECT_EQ(h.series[0].cls, 3);
    EXPECT_EQ(h.series[1].name, "drops");
    EXPECT_EQ(h.series[1].flags, 1);  // sampled with the PMU
    EXPECT_EQ(h.series[2].chart_index, 1U);
    EXPECT_DOUBLE_EQ(h.series[2].multiplier, 0.5);
    EXPECT_EQ(h.series[2].display, 4);
    EXPECT_TRUE(h.problems.empty());
}

TEST(BarmanHeader, Reads64BitLittleEndianAgentBuffer) {
    const Header h = parse(slurp(kDir + "barman64le_linear.raw"));
    EXPECT_EQ(h.preamble.abi.pointer_size, 8U);
    EXPECT_EQ(h.preamble.abi.endian, wire::Endian::Little);
    EXPECT_EQ(h.preamble.header_length, 1744U);
    expect_generator_header(h);
    EXPECT_EQ(h.store.type, StoreType::Linear);
    EXPECT_EQ(h.store.buffer_length, 63792U);
    EXPECT_EQ(h.store.write_offset, 25776U);
    EXPECT_EQ(h.store.record_area, 1744U);
    EXPECT_EQ(h.store.record_area + h.store.buffer_length, 65536U);  // the whole dump
}

TEST(BarmanHeader, Reads32BitBigEndianAgentBuffer) {
    const Header h = parse(slurp(kDir + "barman32be_circular_wrapped.raw"));
    EXPECT_EQ(h.preamble.abi.pointer_size, 4U);
    EXPECT_EQ(h.preamble.abi.endian, wire::Endian::Big);
    EXPECT_EQ(h.preamble.header_length, 1680U);
    expect_generator_header(h);
    EXPECT_EQ(h.store.type, StoreType::Circular);
    // Monotonic counts, larger than the ring.
    EXPECT_GT(h.store.read_offset, h.store.buffer_length);
    EXPECT_EQ(h.store.write_offset, h.store.total_written);
    EXPECT_EQ(h.store.record_area + h.store.buffer_length, 4096U);
}

StoreBuilder sample_builder(StoreConfig c) {
    StoreBuilder b(std::move(c));
    b.core(0, 0x410fd070, {0xffffffffU, 0x1b});
    b.core(1, 0x410fd030, {0xffffffffU});
    return b;
}

TEST(BarmanHeader, Reads64BitBigEndianHeader) {
    StoreConfig c;
    c.big_endian = true;
    c.custom_series = 1;
    StoreBuilder b = sample_builder(c);
    b.task(7, "main");
    b.mmap(7, 0x8000'0000'0000ULL, 0x2000, 0x40, "rtos.elf");
    b.chart("Load", 2, 3, 0x05);
    b.series(0, "busy", "%", 0x00abcdef, 0.25, 3, 2, 0);
    const Header h = parse(b.linear(256));
    EXPECT_EQ(h.preamble.abi.pointer_size, 8U);
    EXPECT_EQ(h.preamble.abi.endian, wire::Endian::Big);
    EXPECT_EQ(h.target_name, "test-target");
    EXPECT_EQ(h.cores[0].midr, 0x410fd070U);
    EXPECT_EQ(h.cores[0].counter_types, (std::vector<std::uint32_t>{0xffffffffU, 0x1b}));
    ASSERT_EQ(h.tasks.size(), 1U);
    EXPECT_EQ(h.tasks[0].task_id, 7U);
    ASSERT_EQ(h.mmaps.size(), 1U);
    EXPECT_EQ(h.mmaps[0].base_address, 0x8000'0000'0000ULL);
    EXPECT_EQ(h.mmaps[0].image_offset, 0x40U);
    ASSERT_EQ(h.series.size(), 1U);
    EXPECT_EQ(h.series[0].colour, 0x00abcdefU);
    EXPECT_DOUBLE_EQ(h.series[0].multiplier, 0.25);
    EXPECT_EQ(h.charts[0].rendering_type, 3);
    EXPECT_EQ(h.store.buffer_length, 256U);
    EXPECT_TRUE(h.problems.empty());
}

TEST(BarmanHeader, ReadsHeaderWithoutTaskInfosOrCustomCharts) {
    StoreConfig c;
    c.max_task_infos = 0;
    c.custom_series = 0;
    c.pointer_size = 4;
    StoreBuilder b = sample_builder(c);
    b.mmap(0, 0x1000, 0x100, 0, "fw.elf");
    const Header h = parse(b.linear(128));
    EXPECT_FALSE(h.plan.task_count.has_value());
    EXPECT_FALSE(h.plan.chart_count.has_value());
    EXPECT_TRUE(h.tasks.empty());
    EXPECT_TRUE(h.series.empty());
    ASSERT_EQ(h.mmaps.size(), 1U);
    EXPECT_FALSE(h.mmaps[0].task_id.has_value());  // the layout has no task fields then
    EXPECT_EQ(h.mmaps[0].image, "fw.elf");
    EXPECT_EQ(h.mmaps[0].base_address, 0x1000U);
    EXPECT_EQ(h.store.buffer_length, 128U);
    const RecordLayout r = h.records();
    EXPECT_EQ(r.sample_fixed(true), 16U + 4U);  // header + pc, no task id, no custom count
    EXPECT_EQ(r.annotation_fixed(), 16U + 4U + 13U);
}

TEST(BarmanHeader, FollowsAnAbiThatAlignsU64ToFourBytes) {
    StoreConfig c;
    c.pointer_size = 4;
    c.custom_series = 1;
    c.data_store_alignment = 4;
    StoreBuilder b = sample_builder(c);
    b.chart("c", 1, 1, 0);
    b.series(0, "s", "", 0xffffffffU, 1.0, 1, 1, 0);
    const auto file = b.linear(96);
    const Header h = parse(file);
    ASSERT_EQ(h.data_store_offset % 8, 4U) << "the test must place the data store off 8-alignment";
    EXPECT_EQ(h.store.buffer_length, 96U);
    EXPECT_EQ(h.store.record_area % 8, 0U);
}

TEST(BarmanHeader, AcceptsProtocolVersionsOneToThree) {
    for (std::uint32_t v : {1U, 2U, 3U}) {
        StoreConfig c;
        c.version = v;
        EXPECT_EQ(parse(sample_builder(c).linear(64)).preamble.version, v);
    }
    StoreConfig c;
    c.version = 4;
    const Error e = parse_error(sample_builder(c).linear(64));
    EXPECT_NE(e.message.find("protocol version 4"), std::string::npos) << e.to_string();
    EXPECT_EQ(e.offset, 8U);
    EXPECT_EQ(e.kind, ErrorKind::Unsupported);
}

TEST(BarmanHeader, UnknownMagicSaysWhichBytesWereSeen) {
    auto file = sample_builder({}).linear(64);
    file[0] = '3';  // "36NAMRAB": not a Barman magic
    const Error e = parse_error(file);
    EXPECT_NE(e.message.find("unknown magic 33 36 4e 41 4d 52 41 42 (\"36NAMRAB\")"),
              std::string::npos)
        << e.message;
    EXPECT_EQ(e.offset, 0U);
    EXPECT_EQ(e.record, "header");
    EXPECT_EQ(e.kind, ErrorKind::Malformed);
    EXPECT_FALSE(is_barman_magic(file));
    EXPECT_TRUE(is_barman_magic(sample_builder({}).linear(64)));
}

TEST(BarmanHeader, RejectsConstantsThatMakeTheHeaderLargerThanTheFile) {
    auto file = sample_builder({}).linear(64);
    // max_task_infos (offset 40) = 60000: 960 KB of task infos in a file of a few KB.
    file[40] = 0x60;
    file[41] = 0xea;
    const Error e = parse_error(file);
    EXPECT_NE(e.message.find("make the header at least"), std::string::npos) << e.message;
    EXPECT_EQ(e.field, "config_constants");
    EXPECT_EQ(e.offset, 36U);
}

TEST(BarmanHeader, RejectsImplausibleConstantsAndBadHeaderLength) {
    auto file = sample_builder({}).linear(64);
    auto huge = file;
    huge[48 + 3] = 0x10;  // max_pmu_counters = 0x10000000
    EXPECT_NE(parse_error(huge).message.find("max_pmu_counters"), std::string::npos);

    StoreBuilder b = sample_builder({});
    b.header_length_override = 200;  // less than the constants need
    EXPECT_EQ(parse_error(b.linear(64)).field, "header_length");

    StoreBuilder wrong = sample_builder({});
    wrong.header_length_override = 4000;
    const auto header_only = wrong.header(1, 64, 0, 0, 0);  // past the end of the file
    const Error e = parse_error(header_only);
    EXPECT_EQ(e.field, "header_length");
    EXPECT_NE(e.message.find("more than the file"), std::string::npos) << e.message;
    // In a file long enough, a header_length that the sections do not add up to.
    const Error mismatch = parse_error(wrong.linear(64));
    EXPECT_EQ(mismatch.field, "header_length");
    EXPECT_NE(mismatch.message.find("does not match the header the constants describe"),
              std::string::npos)
        << mismatch.message;

    const std::vector<std::uint8_t> short_file(file.begin(), file.begin() + 40);
    const auto cut = read_header(short_file, short_file.size());
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().kind, ErrorKind::Truncated) << cut.error().to_string();
}

TEST(BarmanHeader, ReportsBadStringsAndCountsButKeepsReading) {
    StoreBuilder b = sample_builder({});
    b.task(1, "one");
    b.task_count_override = 9;  // more than max_task_infos (4)
    auto file = b.linear(64);
    file[20] = 0xff;  // target_name_ptr past the string table
    file[21] = 0x0f;
    const Header h = parse(file);
    EXPECT_EQ(h.target_name, "");
    EXPECT_EQ(h.tasks.size(), 4U);
    EXPECT_EQ(h.tasks[0].name, "one");
    ASSERT_GE(h.problems.size(), 2U);
    std::string all;
    for (const auto& p : h.problems) all += p.to_string() + "\n";
    EXPECT_NE(all.find("target_name_ptr"), std::string::npos) << all;
    EXPECT_NE(all.find("num_task_entries 9 exceeds"), std::string::npos) << all;
}

TEST(BarmanHeader, ClockTurnsTicksIntoNanoseconds) {
    ClockInfo clock{1000, 1'000'000'000, 19'200'000, 0};
    EXPECT_EQ(clock.to_ns(1000), 0);
    EXPECT_EQ(clock.to_ns(1000 + 19'200'000), 1'000'000'000);
    EXPECT_EQ(clock.to_ns(1000 + 192), 10'000);
    EXPECT_EQ(clock.to_ns(0), -52083);  // before the base
    ClockInfo huge{0, UINT64_MAX, 1, 0};
    EXPECT_EQ(huge.to_ns(UINT64_MAX), INT64_MAX);  // saturates instead of wrapping
}

TEST(BarmanHeader, ClockGivesTheSameNanosecondsEitherSideOfA64BitProduct) {
    // to_ns() multiplies and divides in 64 bits while the product fits, in 128 otherwise: the
    // quotient must not change where one gives way to the other.
    __extension__ typedef unsigned __int128 u128;
    for (const std::uint64_t divisor : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{7},
                                        std::uint64_t{19'200'000}, UINT64_MAX}) {
        for (const std::uint64_t multiplier :
             {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{1'000'000'000}}) {
            const ClockInfo clock{5, multiplier, divisor, 0};
            const std::uint64_t edge = UINT64_MAX / multiplier;  // the last diff whose product fits
            for (const std::uint64_t diff :
                 {std::uint64_t{0}, std::uint64_t{1}, edge - 1, edge, edge + 1, UINT64_MAX - 5}) {
                if (diff > UINT64_MAX - 5) continue;
                const u128 ns = u128{diff} * multiplier / (divisor == 0 ? 1 : divisor);
                const model::Nanos want =
                    ns > static_cast<u128>(INT64_MAX) ? INT64_MAX : static_cast<model::Nanos>(ns);
                EXPECT_EQ(clock.to_ns(5 + diff), want)
                    << diff << " * " << multiplier << " / " << divisor;
                if (diff <= 5) {
                    EXPECT_EQ(clock.to_ns(5 - diff), want == 0 ? 0 : -want)
                        << "before the base: " << diff;
                }
            }
        }
    }
}

TEST(BarmanHeader, LoadReadsOnlyTheHeaderItNeeds) {
    auto loaded = BarmanSource::load(kDir + "barman64le_circular_nowrap.raw");
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    EXPECT_EQ(loaded->file.size(), 65536U);
    EXPECT_EQ(loaded->header.store.type, StoreType::Circular);
    EXPECT_EQ(loaded->geometry.data_length, loaded->header.store.write_offset);
    EXPECT_FALSE(loaded->geometry.evicted);
    EXPECT_TRUE(loaded->store_problems.empty());
    auto missing = BarmanSource::load(kDir + "no-such-file.raw");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().to_string().find("no-such-file.raw"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::collectors::barman
