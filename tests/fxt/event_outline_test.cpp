// The first pass outlines event records instead of parsing them (event_outline.hpp). That is only
// right if the outline accepts exactly the records RecordParser::parse_event accepts, with the
// same type, timestamp and thread: otherwise the index would note times or threads the second
// pass never reads, or miss some it does. Compared on every event of the real archives, on
// records of every event and argument type, and on many thousands of damaged copies of them.
#include "collectors/fxt/event_outline.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <vector>

#include "collectors/fxt/record_parser.hpp"
#include "fxt_writer.hpp"
#include "protocol/wire/fixed_load.hpp"
#include "protocol/wire/mapped_file.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

struct Agreement {
    std::size_t events = 0;
    std::size_t parsed = 0;
};

// Outlines and parses one record against `tables`; both must agree.
void expect_agreement(const RawRecord& raw, wire::Endian endian, const ProviderTables& tables,
                      Agreement& seen) {
    const RecordParser parser(endian);
    EventRecord parsed;
    Error failure;
    const bool parses = parser.parse_event(raw, tables, parsed, failure);
    EventOutline outline;
    const bool outlines = outline_event(raw, endian, tables, outline);
    ++seen.events;
    ASSERT_EQ(outlines, parses) << "record at " << raw.offset << ", header " << std::hex
                                << raw.header << (parses ? "" : ": " + failure.to_string());
    if (!parses) return;
    ++seen.parsed;
    EXPECT_EQ(outline.type, parsed.type);
    EXPECT_EQ(outline.ticks, parsed.ticks);
    EXPECT_EQ(outline.thread, parsed.thread);
}

// Every record of an archive in file order, tables kept as the first pass keeps them.
Agreement check_archive(std::span<const std::uint8_t> data) {
    const wire::Endian endian = detect_endian(data);
    Tokenizer tokenizer(data, endian);
    const RecordParser parser(endian);
    ProviderTables tables;
    Agreement seen;
    for (;;) {
        auto next = tokenizer.next();
        if (!next || !*next) break;
        const RawRecord& raw = **next;
        if (RecordParser::is_event(raw)) {
            expect_agreement(raw, endian, tables, seen);
            if (::testing::Test::HasFatalFailure()) return seen;
            continue;
        }
        Record rec;
        if (!parser.parse(raw, tables, rec).ok()) continue;
        if (std::holds_alternative<ProviderInfoRecord>(rec)) tables.reset();
        tables.apply(rec);
    }
    return seen;
}

TEST(FxtEventOutline, AgreesWithTheParserOnEveryEventOfTheRealArchives) {
    const auto dir = std::filesystem::path(test_paths::testdata_dir()) / "fxt";
    std::size_t archives = 0;
    Agreement all;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.path().extension() != ".fxt") continue;
        auto file = wire::MappedFile::open(entry.path());
        ASSERT_TRUE(file.ok()) << entry.path();
        const Agreement seen = check_archive(file->bytes());
        ASSERT_FALSE(HasFatalFailure()) << entry.path();
        all.events += seen.events;
        all.parsed += seen.parsed;
        ++archives;
    }
    EXPECT_GE(archives, 11U);
    EXPECT_GT(all.parsed, 400U);
}

// Events of every type, with inline and indexed strings and threads and every argument type.
std::vector<std::uint8_t> sample_events(bool big_endian) {
    FxtWriter w(big_endian);
    w.magic();
    w.initialization(19'200'000);
    w.string_record(1, "cat");
    w.string_record(2, "name");
    w.thread_record(3, 10, 11);
    const std::vector<ArgSpec> every_arg = {arg_null(inl("n")),
                                            arg_i32(idx(1), -5),
                                            arg_u32(inl("u32"), 7),
                                            arg_i64(inl("i64"), -1),
                                            arg_u64(idx(2), ~0ULL),
                                            arg_double(inl("dbl"), 2.5),
                                            arg_string(inl("s"), idx(1)),
                                            arg_string(idx(2), inl("an inline value")),
                                            arg_pointer(inl("p"), 0x1000),
                                            arg_koid(inl("k"), 42),
                                            arg_bool(inl("b"), true)};
    for (unsigned type = 0; type <= 10; ++type) {
        const bool extra = type != 0 && type != 2 && type != 3;
        const auto event = [&](std::uint64_t ticks, Thr t, Str category, Str name,
                               const std::vector<ArgSpec>& args) {
            if (extra) {
                w.event(type, ticks, t, category, name, args, 900 + type);
            } else {
                w.event(type, ticks, t, category, name, args);
            }
        };
        event(100 + type, thr(3), idx(1), idx(2), {});
        event(200 + type, inline_thread(20, 21), inl("category"), inl("a longer name"), every_arg);
        event(300 + type, thr(9), inl(""), idx(7), {arg_i64(inl("v"), 3)});
    }
    return w.take();
}

// Damages copies of each sample event: bits flipped anywhere (the header's sizes, counts, refs
// and types included) and records cut short; both readers see the same bytes and tables.
TEST(FxtEventOutline, AgreesWithTheParserOnDamagedEvents) {
    std::mt19937_64 random(2026);
    std::size_t rejected = 0;
    for (const bool big : {false, true}) {
        const auto bytes = sample_events(big);
        const wire::Endian endian = big ? wire::Endian::Big : wire::Endian::Little;
        Tokenizer tokenizer(bytes, endian);
        const RecordParser parser(endian);
        ProviderTables tables;
        std::vector<std::vector<std::uint8_t>> events;
        for (;;) {
            auto next = tokenizer.next();
            ASSERT_TRUE(next.ok());
            if (!*next) break;
            const RawRecord& raw = **next;
            if (RecordParser::is_event(raw)) {
                events.emplace_back(raw.bytes.begin(), raw.bytes.end());
                continue;
            }
            Record rec;
            ASSERT_TRUE(parser.parse(raw, tables, rec).ok());
            tables.apply(rec);
        }
        ASSERT_EQ(events.size(), 33U);
        Agreement seen;
        for (const auto& original : events) {
            for (int round = 0; round < 600; ++round) {
                std::vector<std::uint8_t> damaged = original;
                const int flips = static_cast<int>(random() % 3);
                for (int f = 0; f <= flips; ++f) {
                    const std::size_t bit = random() % (damaged.size() * 8);
                    damaged[bit / 8] ^= static_cast<std::uint8_t>(1U << (bit % 8));
                }
                std::size_t size = damaged.size();
                if (random() % 4 == 0) size = random() % (size + 1);  // cut, any length
                if (size < kWordBytes) size = kWordBytes;  // the tokenizer cuts whole words
                const RawRecord raw{0, wire::load_u64(damaged.data(), endian),
                                    std::span<const std::uint8_t>(damaged.data(), size)};
                if (!RecordParser::is_event(raw)) continue;  // a flip in the record type
                expect_agreement(raw, endian, tables, seen);
                ASSERT_FALSE(HasFatalFailure());
            }
        }
        rejected += seen.events - seen.parsed;
        EXPECT_GT(seen.parsed, 1000U);
    }
    EXPECT_GT(rejected, 1000U);  // the damage reached every check, not only harmless bits
}

}  // namespace
}  // namespace apcgate::collectors::fxt
