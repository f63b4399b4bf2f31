// UniqueMapping: one owner of a mapping, which grows without losing its bytes and is unmapped
// exactly once.
#include "protocol/wire/unique_mapping.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <utility>

namespace apcgate::wire {
namespace {

// Whether the page at `p` is mapped in this process (mincore fails with ENOMEM when it is not).
bool mapped(const void* p) {
    unsigned char v = 0;
    return ::mincore(const_cast<void*>(p), 1, &v) == 0;  // NOLINT: mincore takes a void*
}

TEST(UniqueMapping, GrowsKeepingItsBytesAndIsUnmappedOnceByItsLastOwner) {
    UniqueMapping m = UniqueMapping::anonymous(4096);
    ASSERT_TRUE(m.valid());
    std::memset(m.bytes(), 'a', 4096);
    ASSERT_TRUE(m.grow(std::size_t{1} << 20));
    EXPECT_EQ(m.size(), std::size_t{1} << 20);
    EXPECT_EQ(m.bytes()[0], 'a');
    EXPECT_EQ(m.bytes()[4095], 'a');
    m.bytes()[(std::size_t{1} << 20) - 1] = 'z';  // the new room is writable

    UniqueMapping owner = std::move(m);
    EXPECT_FALSE(m.valid());  // NOLINT(bugprone-use-after-move): a moved-from mapping is empty
    const void* at = owner.get();
    EXPECT_TRUE(mapped(at));
    {
        UniqueMapping last = std::move(owner);
        EXPECT_TRUE(mapped(at));
    }
    EXPECT_FALSE(mapped(at)) << "the last owner unmapped it";
    UniqueMapping empty;
    empty.reset();  // an empty owner's reset does nothing
    EXPECT_FALSE(empty.valid());
}

}  // namespace
}  // namespace apcgate::wire
