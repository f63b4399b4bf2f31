// Pages of the mapped archive go back as a pass moves on: checked in the process's own page
// table (/proc/self/pagemap: a page is present while the mapping holds it).
#include "collectors/fxt/page_release.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "collectors/fxt/archive_index.hpp"
#include "fxt_writer.hpp"
#include "protocol/wire/mapped_file.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

class PageMap {
  public:
    PageMap() : fd_(::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) {}
    ~PageMap() {
        if (fd_ >= 0) ::close(fd_);
    }
    PageMap(const PageMap&) = delete;
    PageMap& operator=(const PageMap&) = delete;
    [[nodiscard]] bool usable() const { return fd_ >= 0; }
    [[nodiscard]] bool present(const std::uint8_t* p) const {
        const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        std::uint64_t entry = 0;
        // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): pagemap is by address
        const auto at = static_cast<off_t>(reinterpret_cast<std::uintptr_t>(p) / page * 8);
        if (::pread(fd_, &entry, sizeof entry, at) != sizeof entry) return false;
        return (entry >> 63) != 0;
    }

  private:
    int fd_;
};

class TempFile {
  public:
    explicit TempFile(const std::vector<std::uint8_t>& bytes)
        : path_(std::filesystem::temp_directory_path() /
                ("apcgate-page-release-" + std::to_string(::getpid()) + ".fxt")) {
        std::ofstream out(path_, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT
                  static_cast<std::streamsize>(bytes.size()));
    }
    ~TempFile() { std::filesystem::remove(path_); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

std::uint64_t touch(std::span<const std::uint8_t> bytes) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < bytes.size(); i += 4096) sum += bytes[i];
    return sum;
}

TEST(FxtPageRelease, GivesBackWholePagesBehindTheReadPositionInSteps) {
    PageMap map;
    if (!map.usable()) GTEST_SKIP() << "no /proc/self/pagemap";
    const TempFile file(std::vector<std::uint8_t>(3 * PageRelease::kStep, 1));
    auto mapped = wire::MappedFile::open(file.path());
    ASSERT_TRUE(mapped);
    const auto bytes = mapped->bytes();
    EXPECT_EQ(touch(bytes), bytes.size() / 4096);
    ASSERT_TRUE(map.present(bytes.data()));

    PageRelease pages(bytes);
    pages.upto(PageRelease::kStep - 1);  // less than a step: nothing yet
    EXPECT_TRUE(map.present(bytes.data()));

    pages.upto(PageRelease::kStep + 100);
    EXPECT_FALSE(map.present(bytes.data()));
    EXPECT_FALSE(map.present(bytes.data() + PageRelease::kStep - 1));
    // The page holding the position is still being read.
    EXPECT_TRUE(map.present(bytes.data() + PageRelease::kStep + 100));
    EXPECT_TRUE(map.present(bytes.data() + 2 * PageRelease::kStep));
    // Released pages read the same when a later pass comes back to them.
    EXPECT_EQ(bytes[0], 1);
}

TEST(FxtPageRelease, TheIndexPassGivesItsPagesBackAndLearnsTheSame) {
    PageMap map;
    if (!map.usable()) GTEST_SKIP() << "no /proc/self/pagemap";
    FxtWriter head;
    head.magic();
    head.initialization(1'000'000'000);
    head.string_record(1, "cat");
    head.string_record(2, "name");
    FxtWriter one;
    one.event(0, 1000, inline_thread(1, 2), idx(1), idx(2), {arg_u32(inl("n"), 7)});
    std::vector<std::uint8_t> bytes = head.bytes();
    while (bytes.size() < 3 * PageRelease::kStep)
        bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
    const TempFile file(bytes);
    auto mapped = wire::MappedFile::open(file.path());
    ASSERT_TRUE(mapped);

    PageRelease pages(mapped->bytes());
    const ArchiveIndex released = build_index(mapped->bytes(), &pages);
    EXPECT_FALSE(map.present(mapped->bytes().data()));
    const ArchiveIndex kept = build_index(mapped->bytes());
    EXPECT_TRUE(map.present(mapped->bytes().data()));
    EXPECT_EQ(released.origin_ns, kept.origin_ns);
    EXPECT_EQ(released.providers.size(), kept.providers.size());
    EXPECT_EQ(released.threads.size(), kept.threads.size());
}

}  // namespace
}  // namespace apcgate::collectors::fxt
