// The kernel's build id from /sys/kernel/notes (a Perf-type capture's KERNEL_BUILD_ID): notes
// blobs laid out as this machine's kernel writes them (Xen and Linux notes around the GNU one),
// broken ones, a fake /sys tree, and this machine's own file.
#include "collectors/perf/kernel_build_id.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace apcgate::collectors::perf {
namespace {

namespace fs = std::filesystem;

// One ELF note: namesz, descsz, type, the name (with its NUL) and the descriptor, each padded
// to 4 bytes.
void note(std::vector<std::uint8_t>& out, const std::string& name, std::uint32_t type,
          const std::vector<std::uint8_t>& desc) {
    const auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    u32(static_cast<std::uint32_t>(name.size() + 1));
    u32(static_cast<std::uint32_t>(desc.size()));
    u32(type);
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(0);
    while (out.size() % 4 != 0) out.push_back(0);
    out.insert(out.end(), desc.begin(), desc.end());
    while (out.size() % 4 != 0) out.push_back(0);
}

const std::vector<std::uint8_t> kId = {0x85, 0xc7, 0xe4, 0xe2, 0xed, 0x76, 0xf4, 0x41, 0x7e, 0x8a,
                                       0xaa, 0xd7, 0xc6, 0xb0, 0x40, 0xd2, 0xbb, 0x89, 0x7a, 0x26};

std::vector<std::uint8_t> machine_like_notes() {
    std::vector<std::uint8_t> n;
    note(n, "Xen", 18, {0x00, 0xcf, 0x78, 0x03, 0, 0, 0, 0});
    note(n, "Linux", 0x101, {1, 1, 0, 0});
    note(n, "GNU", 3, kId);
    note(n, "Linux", 0x100, std::vector<std::uint8_t>(30, 'x'));
    return n;
}

TEST(KernelBuildId, TheGnuNoteAmongOthers) {
    const auto id = gnu_build_id(machine_like_notes());
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_EQ(*id, kId);
}

TEST(KernelBuildId, NoGnuNoteIsEmptyAndACutNoteAnError) {
    std::vector<std::uint8_t> none;
    note(none, "Linux", 0x101, {1, 1, 0, 0});
    note(none, "GNU", 1, {0, 0, 0, 0, 3, 0, 0, 0});  // an ABI tag, not a build id
    const auto empty = gnu_build_id(none);
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->empty());

    std::vector<std::uint8_t> cut = machine_like_notes();
    cut.resize(72);  // inside the GNU note's descriptor (bytes 64 to 84)
    const auto broken = gnu_build_id(cut);
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().field, "desc");
}

TEST(KernelBuildId, ReadFromAGivenSysTree) {
    const fs::path root = fs::temp_directory_path() / ("sys_notes." + std::to_string(::getpid()));
    fs::create_directories(root / "kernel");
    {
        const auto n = machine_like_notes();
        std::ofstream(root / "kernel/notes", std::ios::binary)
            .write(reinterpret_cast<const char*>(n.data()),  // NOLINT: ofstream writes chars
                   static_cast<std::streamsize>(n.size()));
    }
    const auto id = kernel_build_id(root);
    const auto missing = kernel_build_id(root / "nowhere");
    fs::remove_all(root);
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_EQ(*id, kId);
    EXPECT_FALSE(missing);
}

TEST(KernelBuildId, ThisMachinesKernelHasOne) {
    std::error_code ec;
    if (!fs::exists("/sys/kernel/notes", ec)) GTEST_SKIP() << "no /sys/kernel/notes here";
    const auto id = kernel_build_id("/sys");
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_FALSE(id->empty());
}

}  // namespace
}  // namespace apcgate::collectors::perf
