// The two passes on hand-built archives: provider sections and their own tables, the merge of
// providers by time, the reorder window a complete event needs, bounded chunks, and the cap on
// what may be held back.
#include "collectors/fxt/archive_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "collectors/fxt/order_buffer.hpp"
#include "collectors/fxt/record_kinds.hpp"
#include "fxt_writer.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

struct Read {
    ArchiveIndex index;
    ingest::IngestReport report{"fxt", "test"};
    std::vector<Item> items;
    std::vector<ArchiveReader::Chunk> chunks;
    std::vector<std::size_t> ends;  // items handed out after each chunk
};

std::unique_ptr<Read> read_all(const std::vector<std::uint8_t>& bytes,
                               ArchiveReader::Limits limits = {}) {
    auto r = std::make_unique<Read>();
    r->index = build_index(bytes);
    KoidMap koids = r->index.koids;
    ArchiveReader reader(bytes, r->index, koids, r->report, limits);
    for (int i = 0; i < 100000; ++i) {
        r->chunks.push_back(reader.read(r->items));
        r->ends.push_back(r->items.size());
        if (r->chunks.back().finished) break;
    }
    return r;
}

// Two providers, each with its own string 1 and its own clock, written one after the other as
// a trace manager concatenates their buffers.
std::vector<std::uint8_t> two_providers() {
    FxtWriter w;
    w.magic();
    w.provider_info(1, "alpha");
    w.provider_section(1);
    w.initialization(1'000'000);  // 1 tick = 1 us
    w.string_record(1, "alpha-name");
    w.event(0, 10, inline_thread(1, 100), {}, idx(1));  // 10 us
    w.event(0, 30, inline_thread(1, 100), {}, idx(1));  // 30 us
    w.provider_info(2, "beta");
    w.provider_section(2);
    w.string_record(1, "beta-name");
    w.event(0, 20'000, inline_thread(2, 200), {}, idx(1));  // 20 us at 1 ns per tick
    w.event(0, 40'000, inline_thread(2, 200), {}, idx(1));
    w.provider_section(1);
    w.event(0, 50, inline_thread(1, 100), {}, idx(1));  // alpha again: 50 us, its own table
    return w.take();
}

TEST(FxtArchive, IndexFindsProviderSectionsAndClocks) {
    const auto bytes = two_providers();
    const ArchiveIndex idx = build_index(bytes);
    ASSERT_EQ(idx.providers.size(), 3U);  // the default provider holds the magic record
    EXPECT_EQ(idx.providers[1].name, "alpha");
    EXPECT_EQ(idx.providers[1].sections.size(), 2U);
    EXPECT_EQ(idx.providers[1].first_ns, 10'000);
    EXPECT_EQ(idx.providers[2].name, "beta");
    EXPECT_EQ(idx.providers[2].first_ns, 20'000);
    EXPECT_EQ(idx.origin_ns, 10'000);
    EXPECT_EQ(idx.providers[1].lag_ns, 0);
}

TEST(FxtArchive, MergesProvidersInTimeOrderWithTheirOwnTables) {
    const auto r = read_all(two_providers());
    ASSERT_EQ(r->items.size(), 5U);
    std::vector<std::pair<model::Nanos, std::string>> got;
    for (const auto& it : r->items) got.emplace_back(it.ts, it.text);
    const std::vector<std::pair<model::Nanos, std::string>> want{{10'000, "alpha-name"},
                                                                 {20'000, "beta-name"},
                                                                 {30'000, "alpha-name"},
                                                                 {40'000, "beta-name"},
                                                                 {50'000, "alpha-name"}};
    EXPECT_EQ(got, want);
    EXPECT_TRUE(r->report.complete());
    EXPECT_EQ(r->report.kinds().at(std::string(kind::kInstant)).mapped, 5U);
    EXPECT_EQ(r->report.kinds().at(std::string(kind::kProviderInfo)).read, 2U);
}

TEST(FxtArchive, CompleteEventsWrittenAtTheirEndAreReordered) {
    FxtWriter w;
    w.magic();
    // Inner complete [20, 30] is written first, then the outer one [10, 40], then an instant.
    w.event(4, 20, inline_thread(1, 2), {}, inl("inner"), {}, 30);
    w.event(4, 10, inline_thread(1, 2), {}, inl("outer"), {}, 40);
    w.event(0, 35, inline_thread(1, 2), {}, inl("after"));
    const auto r = read_all(w.bytes());
    EXPECT_EQ(r->index.providers[0].lag_ns, 10);
    ASSERT_EQ(r->items.size(), 3U);
    EXPECT_EQ(r->items[0].text, "outer");
    EXPECT_EQ(r->items[0].value, 40);
    EXPECT_EQ(r->items[1].text, "inner");
    EXPECT_EQ(r->items[2].text, "after");
}

TEST(FxtArchive, ChunksAreBoundedAndWatermarksHold) {
    FxtWriter w;
    w.magic();
    for (int i = 0; i < 1000; ++i)
        w.event(0, 1000 + static_cast<std::uint64_t>(i), inline_thread(1, 2), {}, inl("e"));
    ArchiveReader::Limits limits;
    limits.max_items = 64;
    const auto r = read_all(w.bytes(), limits);
    EXPECT_EQ(r->items.size(), 1000U);
    EXPECT_GE(r->chunks.size(), 1000U / 64);
    for (std::size_t c = 0; c < r->chunks.size(); ++c) {
        EXPECT_LE(r->ends[c] - (c == 0 ? 0 : r->ends[c - 1]), 64U);
        // Every item handed out after a chunk is at or after that chunk's watermark.
        for (std::size_t i = r->ends[c]; i < r->items.size(); ++i)
            EXPECT_GE(r->items[i].ts, r->chunks[c].watermark);
    }
}

TEST(FxtArchive, BufferCapKeepsMemoryBoundedAndCountsLateEvents) {
    FxtWriter w;
    w.magic();
    for (int i = 0; i < 100; ++i)
        w.event(0, 1000 + static_cast<std::uint64_t>(i), inline_thread(1, 2), {}, inl("e"));
    // Written last, begins first: it would need all 100 instants held back.
    w.event(4, 5, inline_thread(1, 2), {}, inl("long"), {}, 5000);
    ArchiveReader::Limits limits;
    limits.buffer_capacity = 10;
    const auto r = read_all(w.bytes(), limits);
    ASSERT_EQ(r->items.size(), 101U);
    for (std::size_t i = 1; i < r->items.size(); ++i) EXPECT_GE(r->items[i].ts, r->items[i - 1].ts);
    EXPECT_EQ(r->report.kinds().at(std::string(kind::kLateEvent)).mapped, 1U);
    // Moved up to the time already handed out, instead of its own time 5.
    auto late = std::find_if(r->items.begin(), r->items.end(),
                             [](const Item& i) { return i.text == "long"; });
    ASSERT_NE(late, r->items.end());
    ASSERT_NE(late, r->items.begin());
    EXPECT_EQ(late->ts, (late - 1)->ts);
    EXPECT_GT(late->ts, 1000);
}

// take_appended() gives what push() and release() give, whether a record's items may pass
// straight (nothing held, in time order, none past the limit, room in `out`) or must wait in the
// heap.
TEST(FxtOrderBuffer, TakeAppendedGivesWhatPushAndReleaseGive) {
    auto items = [](const std::vector<model::Nanos>& times, std::uint64_t seq) {
        std::vector<Item> v;
        v.reserve(times.size());
        for (const auto t : times) {
            Item i;
            i.ts = t;
            i.seq = seq++;
            v.push_back(i);
        }
        return v;
    };
    auto times = [](const std::vector<Item>& v) {
        std::vector<model::Nanos> t;
        t.reserve(v.size());
        for (const auto& i : v) t.push_back(i.ts);
        return t;
    };
    using T = std::vector<model::Nanos>;
    ingest::IngestReport report("fxt", "t.fxt");
    OrderBuffer buffer(4);
    std::vector<Item> out;
    // A record's items appended to `out`, as the reader builds them, then taken.
    auto add = [&](std::vector<Item>& batch, model::Nanos limit, std::size_t max_out) {
        const std::size_t first = out.size();
        std::move(batch.begin(), batch.end(), std::back_inserter(out));
        buffer.take_appended(out, first, limit, max_out, report);
    };
    auto batch = items({10, 10, 20}, 0);
    add(batch, 20, 100);  // straight through
    EXPECT_EQ(times(out), (T{10, 10, 20}));
    EXPECT_TRUE(buffer.empty());
    batch = items({40, 30}, 3);  // out of order: 30 goes, 40 waits for a later limit
    add(batch, 35, 100);
    EXPECT_EQ(times(out), (T{10, 10, 20, 30}));
    EXPECT_EQ(buffer.size(), 1U);
    batch = items({45}, 5);  // something is held: through the heap, after it
    add(batch, 50, 100);
    EXPECT_EQ(times(out), (T{10, 10, 20, 30, 40, 45}));
    batch = items({60, 70}, 6);  // past the limit: held
    add(batch, 65, 100);
    EXPECT_EQ(times(out), (T{10, 10, 20, 30, 40, 45, 60}));
    batch = items({80}, 8);  // no room in `out`: held until there is
    add(batch, 100, out.size() + 1);
    EXPECT_EQ(times(out), (T{10, 10, 20, 30, 40, 45, 60, 70}));
    buffer.release(100, out, 100);
    batch = items({50, 90}, 9);  // older than what went out: moved up to it and counted
    add(batch, 100, 100);
    EXPECT_EQ(times(out), (T{10, 10, 20, 30, 40, 45, 60, 70, 80, 80, 90}));
    EXPECT_EQ(report.kinds().at(std::string(kind::kLateEvent)).mapped, 1U);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.floor(), 90);
    for (std::size_t i = 1; i < out.size(); ++i) {
        if (out[i - 1].ts == out[i].ts) {
            EXPECT_LT(out[i - 1].seq, out[i].seq);  // file order
        }
    }
}

// The reader builds a record's items at the end of `out`: take_appended() leaves them there
// when they may pass, and otherwise takes only them (not what `out` held before) into the heap.
TEST(FxtOrderBuffer, TakeAppendedMovesOnlyTheRecordsItems) {
    ingest::IngestReport report("fxt", "t.fxt");
    OrderBuffer buffer;
    std::vector<Item> out(2);
    out[0].ts = 5;
    out[0].text = "earlier record";
    out[1].ts = 6;
    Item a;
    a.ts = 10;
    a.seq = 1;
    a.text = "in place";
    out.push_back(a);
    buffer.take_appended(out, 2, 20, 100, report);
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(out[2].text, "in place");
    EXPECT_EQ(buffer.floor(), 10);

    Item later;
    later.ts = 30;
    later.seq = 2;
    later.text = "later";
    Item earlier;
    earlier.ts = 15;
    earlier.seq = 3;
    earlier.text = "earlier";
    out.push_back(later);
    out.push_back(earlier);
    buffer.take_appended(out, 3, 20, 100, report);  // out of order: through the heap
    ASSERT_EQ(out.size(), 4U);
    EXPECT_EQ(out[0].text, "earlier record");
    EXPECT_EQ(out[3].text, "earlier");
    EXPECT_EQ(buffer.size(), 1U);  // 30 waits for a later limit
    buffer.release(kNever, out, 100);
    ASSERT_EQ(out.size(), 5U);
    EXPECT_EQ(out[4].text, "later");
}

TEST(FxtArchive, RecordsWithoutAProviderUseTheDefaultOne) {
    FxtWriter w;
    w.initialization(2'000'000'000);  // 2 ticks per ns
    w.event(0, 100, inline_thread(1, 2), {}, inl("x"));
    const auto r = read_all(w.bytes());
    ASSERT_EQ(r->items.size(), 1U);
    EXPECT_EQ(r->items[0].ts, 50);
}

TEST(FxtArchive, ProviderInfoStartsTheProviderAfresh) {
    FxtWriter w;
    w.provider_info(7, "p");
    w.initialization(1000);
    w.string_record(1, "first");
    w.provider_info(7, "p again");  // tables and clock reset
    w.event(0, 100, inline_thread(1, 2), {}, idx(1));
    const auto r = read_all(w.bytes());
    ASSERT_EQ(r->items.size(), 1U);
    EXPECT_EQ(r->items[0].ts, 100);    // default 1 tick = 1 ns
    EXPECT_EQ(r->items[0].text, "?");  // string 1 is no longer defined
}

}  // namespace
}  // namespace apcgate::collectors::fxt
