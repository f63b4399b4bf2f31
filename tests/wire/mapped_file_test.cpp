// MappedFile: the bytes are the file's, errors name it, and a Scattered file is read in whole at
// once only when it fits the read-ahead limit (seen in which pages are resident, mincore()).
#include "protocol/wire/mapped_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace apcgate::wire {
namespace {

struct TempFile {
    std::filesystem::path path;
    explicit TempFile(std::size_t size) {
        char name[] = "/var/tmp/apcgate-mapped-XXXXXX";
        const int fd = ::mkstemp(name);
        EXPECT_GE(fd, 0);
        path = name;
        std::vector<char> bytes(size);
        for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7);
        EXPECT_EQ(::write(fd, bytes.data(), size), static_cast<ssize_t>(size));
        ::fdatasync(fd);
        ::close(fd);
    }
    ~TempFile() { std::filesystem::remove(path); }
    // Whether a MAP_POPULATE mapping reads the file in here (qemu-user ignores the flag).
    [[nodiscard]] bool populate_works() const {
        const int fd = ::open(path.c_str(), O_RDONLY);
        const auto size = std::filesystem::file_size(path);
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        ::close(fd);
        if (p == MAP_FAILED) return false;
        const bool all = resident(p, size) == pages(size);
        ::munmap(p, size);
        return all;
    }
    // Drops the file's clean pages from the page cache; false where that does nothing (tmpfs).
    [[nodiscard]] bool evict() const {
        const int fd = ::open(path.c_str(), O_RDONLY);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
        auto m = MappedFile::open(path, MappedFile::Access::Sequential);
        return m && resident(*m) == 0;
    }
    static std::size_t pages(std::size_t size) {
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        return (size + page - 1) / page;
    }
    // Pages of the mapping at `start` that are in the page cache.
    static std::size_t resident(void* start, std::size_t size) {
        std::vector<unsigned char> in(pages(size));
        if (::mincore(start, size, in.data()) != 0) return 0;
        std::size_t n = 0;
        for (unsigned char c : in) n += c & 1;
        return n;
    }
    static std::size_t resident(const MappedFile& m) {
        // mincore takes a non-const pointer; it only reads the mapping's state.
        return resident(const_cast<std::uint8_t*>(m.bytes().data()), m.bytes().size());  // NOLINT
    }
};

TEST(MappedFile, MapsTheBytesAndNamesTheFileInErrors) {
    TempFile f(10000);
    auto m = MappedFile::open(f.path);
    ASSERT_TRUE(m) << m.error().to_string();
    ASSERT_EQ(m->bytes().size(), 10000U);
    EXPECT_EQ(m->bytes()[9999], static_cast<std::uint8_t>(9999 * 7));
    EXPECT_EQ(m->identity().size, 10000);
    auto missing = MappedFile::open(f.path.string() + ".none");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().to_string().find(".none"), std::string::npos);
    auto dir = MappedFile::open("/");
    ASSERT_FALSE(dir);
    EXPECT_NE(dir.error().to_string().find("not a regular file"), std::string::npos);
}

TEST(MappedFile, ScatteredFilesAreReadAheadOnlyWithinTheLimit) {
    constexpr std::size_t kSize = 8 << 20;
    TempFile f(kSize);
    if (!f.evict()) GTEST_SKIP() << "this filesystem keeps the pages (tmpfs?)";
    if (!f.populate_works()) GTEST_SKIP() << "MAP_POPULATE reads nothing in here (qemu-user?)";
    ASSERT_TRUE(f.evict());
    {
        auto m = MappedFile::open(f.path, MappedFile::Access::Scattered, kSize);
        ASSERT_TRUE(m);
        EXPECT_EQ(TempFile::resident(*m), TempFile::pages(kSize));  // all of it, before any read
    }
    ASSERT_TRUE(f.evict());
    auto m = MappedFile::open(f.path, MappedFile::Access::Scattered, kSize - 1);
    ASSERT_TRUE(m);
    EXPECT_LT(TempFile::resident(*m), TempFile::pages(kSize) / 2);  // paged in as it is read
    EXPECT_EQ(m->bytes()[kSize - 1], static_cast<std::uint8_t>((kSize - 1) * 7));
    EXPECT_GT(MappedFile::default_read_ahead_limit(), 0U);
}

// A file cut short while it is mapped: reading past its new end would raise SIGBUS and end the
// process; the mapping reads zeros from the first page found gone, and says where that is.
TEST(MappedFile, AFileCutWhileMappedReadsAsZerosFromTheCutAndSaysWhere) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t size = 16 * page;
    TempFile f(size);
    auto m = MappedFile::open(f.path);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->cut_at(), std::nullopt);
    const std::span<const std::uint8_t> b = m->bytes();
    EXPECT_EQ(b[10 * page + 3], static_cast<std::uint8_t>((10 * page + 3) * 7));
    std::filesystem::resize_file(f.path, 2 * page + 100);
    EXPECT_EQ(m->cut_at(), 2 * page + 100);  // seen in the file's size before anything is read
    // Still the file's: below its new end, and the rest of the page holding that end.
    EXPECT_EQ(b[2 * page + 99], static_cast<std::uint8_t>((2 * page + 99) * 7));
    // Past it: zeros, where the file had other bytes.
    EXPECT_EQ(b[10 * page + 3], 0U);
    EXPECT_EQ(b[size - 1], 0U);
    EXPECT_EQ(b[3 * page], 0U);
    EXPECT_EQ(m->cut_at(), 2 * page + 100);
    // Grown back, the file no longer says where it was cut; the mapping still does: the first
    // page read past the end, from where it reads zeros whatever the file holds now.
    std::filesystem::resize_file(f.path, size);
    EXPECT_EQ(m->cut_at(), 3 * page);
    EXPECT_EQ(b[10 * page + 3], 0U);
    // Another mapping of the file is guarded on its own.
    auto other = MappedFile::open(f.path);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->cut_at(), std::nullopt);
}

// A SIGBUS that is not a guarded mapping's still ends the process, as without the guard: by the
// signal, or through a sanitizer's handler installed before (AddressSanitizer reports the fault
// and exits with status 1).
bool ended_by_the_fault(int status) {
    return (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS) ||
           (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

TEST(MappedFileDeathTest, ASigbusOutsideTheGuardedMappingsStillEndsTheProcess) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    TempFile f(4 * page);
    EXPECT_EXIT(
        {
            auto guarded = MappedFile::open(f.path);  // installs the handler
            const int fd = ::open(f.path.c_str(), O_RDONLY);
            void* p = ::mmap(nullptr, 4 * page, PROT_READ, MAP_PRIVATE, fd, 0);
            std::filesystem::resize_file(f.path, 0);
            const volatile auto* bytes = static_cast<const volatile std::uint8_t*>(p);
            const std::uint8_t survived = bytes[3 * page];
            (void)survived;
            std::exit(0);  // only if the read past the end did not end the process
        },
        ended_by_the_fault, "");
}

}  // namespace
}  // namespace apcgate::wire
