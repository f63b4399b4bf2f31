// A scratch directory for one end-to-end test, removed when the test ends (e2e::temp_dir()
// leaves its directories behind, and every ctest process would add a dozen to /tmp).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "daemon_process.hpp"

namespace apcgate::barman_test {

class TestDir {
  public:
    explicit TestDir(const std::string& name) : path_(e2e::temp_dir(name)) {}
    ~TestDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TestDir(const TestDir&) = delete;
    TestDir& operator=(const TestDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace apcgate::barman_test
