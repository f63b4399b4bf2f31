// The pool of spare item texts: what it hands out is empty whatever it held, it keeps no more
// strings than its limit and none not worth keeping, and an archive read that gives every
// chunk's texts back reads the same texts as one that does not.
#include "collectors/fxt/text_pool.hpp"

#include <gtest/gtest.h>

#include "collectors/fxt/archive_reader.hpp"
#include "fxt_writer.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

std::string long_text(char fill) {
    return std::string(100, fill);
}

TEST(FxtTextPool, HandsOutAGivenBufferEmpty) {
    TextPool pool;
    std::string none;
    pool.take(none);  // nothing given yet: a string without a buffer of its own
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.capacity(), std::string().capacity());

    std::string old = long_text('o');
    const char* buffer = old.data();
    pool.give(std::move(old));
    ASSERT_EQ(pool.size(), 1U);
    std::string reused;
    pool.take(reused);
    EXPECT_TRUE(reused.empty());
    EXPECT_EQ(reused.data(), buffer);  // the same buffer, not a new one
    EXPECT_GE(reused.capacity(), 100U);
    EXPECT_EQ(pool.size(), 0U);
    reused += "new";
    EXPECT_EQ(reused, "new");  // nothing of "ooo..." left in it
}

TEST(FxtTextPool, KeepsAtMostItsLimitAndOnlyBuffersWorthKeeping) {
    TextPool pool(4);
    for (int i = 0; i < 10; ++i) pool.give(long_text('x'));
    EXPECT_EQ(pool.size(), 4U);
    EXPECT_EQ(pool.limit(), 4U);

    TextPool other(4);
    other.give(std::string("short"));  // within the inline buffer: nothing to keep
    std::string moved = long_text('m');
    const std::string away = std::move(moved);
    other.give(std::move(moved));  // NOLINT(bugprone-use-after-move): moved from on purpose
    std::string huge;
    huge.reserve(TextPool::kMaxCapacity + 1);
    other.give(std::move(huge));
    EXPECT_EQ(other.size(), 0U);
    EXPECT_EQ(away, long_text('m'));
}

// Texts of many lengths (often a shorter one after a longer one, so a reused string that kept
// any of its old text would show it), read in small chunks that give their texts back each
// time; the reader keeps no more spare texts than a chunk's items, however many come back.
TEST(FxtTextPool, ReadingWithRecycledTextsGivesTheSameTexts) {
    FxtWriter w;
    w.magic();
    std::vector<std::string> names;
    names.reserve(300);
    for (int i = 0; i < 300; ++i)
        names.emplace_back(static_cast<std::size_t>(20 + (i * 37) % 90),
                           static_cast<char>('a' + i % 26));
    for (int i = 0; i < 300; ++i)
        w.event(0, 1000 + static_cast<std::uint64_t>(i), inline_thread(1, 2), inl("cat"),
                inl(names[static_cast<std::size_t>(i)]));
    const auto bytes = w.take();
    const ArchiveIndex index = build_index(bytes);
    ArchiveReader::Limits limits;
    limits.max_items = 8;

    auto texts = [&](bool recycle) {
        ingest::IngestReport report("fxt", "test");
        KoidMap koids = index.koids;
        ArchiveReader reader(bytes, index, koids, report, limits);
        std::vector<std::string> got;
        std::vector<Item> items;
        for (int i = 0; i < 10000; ++i) {
            const auto chunk = reader.read(items);
            for (const Item& it : items) got.push_back(it.text);
            if (recycle) {
                reader.recycle(items);
                EXPECT_TRUE(items.empty());
                EXPECT_LE(reader.texts().size(), limits.max_items);
            } else {
                items.clear();
            }
            if (chunk.finished) break;
        }
        if (recycle) {
            std::vector<Item> many(50);
            for (Item& it : many) it.text = long_text('z');
            reader.recycle(many);
            EXPECT_EQ(reader.texts().size(), limits.max_items);
        }
        return got;
    };
    const std::vector<std::string> fresh = texts(false);
    ASSERT_EQ(fresh.size(), 300U);
    EXPECT_EQ(fresh[0], "cat:" + names[0]);
    EXPECT_EQ(texts(true), fresh);
}

}  // namespace
}  // namespace apcgate::collectors::fxt
