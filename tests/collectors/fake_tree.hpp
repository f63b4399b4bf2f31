// A throw-away directory tree standing in for /proc and /sys in tests.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace apcgate::collectors::procfs::testing {

class FakeTree {
  public:
    FakeTree() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "procfs_test.XXXXXX").string();
        const char* dir = ::mkdtemp(tmpl.data());
        EXPECT_NE(dir, nullptr);
        root_ = tmpl;
        std::filesystem::create_directories(proc());
        std::filesystem::create_directories(sys());
    }
    ~FakeTree() {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }
    FakeTree(const FakeTree&) = delete;
    FakeTree& operator=(const FakeTree&) = delete;

    [[nodiscard]] std::filesystem::path proc() const { return root_ / "proc"; }
    [[nodiscard]] std::filesystem::path sys() const { return root_ / "sys"; }

    // Writes in place (same inode), as procfs content changes under an open descriptor.
    static void write(const std::filesystem::path& file, std::string_view content) {
        std::filesystem::create_directories(file.parent_path());
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        ASSERT_TRUE(out.good()) << file;
    }
    void proc_file(std::string_view rel, std::string_view content) const {
        write(proc() / rel, content);
    }
    void sys_file(std::string_view rel, std::string_view content) const {
        write(sys() / rel, content);
    }
    void sys_dir(std::string_view rel) const { std::filesystem::create_directories(sys() / rel); }
    void proc_symlink(std::string_view rel, std::string_view target) const {
        std::filesystem::create_directories((proc() / rel).parent_path());
        std::filesystem::create_symlink(target, proc() / rel);
    }

  private:
    std::filesystem::path root_;
};

}  // namespace apcgate::collectors::procfs::testing
