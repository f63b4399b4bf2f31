// gatord 9.7.2's own local capture (tests/data/gatord, README there), unpacked once per test
// program into a temporary .apc directory. The data file is stored xz-compressed; xz (Debian's
// xz-utils) restores it, so the repository carries 1/10 of its size.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.hpp"

namespace apcgate::test {

// Removes the unpacked copy when the test program ends.
struct RemovedAtExit {
    std::filesystem::path path;
    ~RemovedAtExit() {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
};

inline const std::filesystem::path& gatord_capture_dir() {
    static RemovedAtExit cleanup;
    static const std::filesystem::path kDir = [] {
        const std::filesystem::path src =
            std::filesystem::path(apcgate::test_paths::testdata_dir()) / "gatord" /
            "gatord-local.apc";
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "gatord-capture-XXXXXX").string();
        if (mkdtemp(tmpl.data()) == nullptr) return std::filesystem::path();
        cleanup.path = tmpl;
        std::filesystem::path out = std::filesystem::path(tmpl) / "gatord-local.apc";
        std::filesystem::create_directories(out);
        std::filesystem::copy_file(src / "captured.xml", out / "captured.xml");
        const std::string cmd = "xz -dc '" + (src / "0000000000.xz").string() + "' > '" +
                                (out / "0000000000").string() + "'";
        if (std::system(cmd.c_str()) != 0) return std::filesystem::path();
        return out;
    }();
    return kDir;
}

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace apcgate::test
