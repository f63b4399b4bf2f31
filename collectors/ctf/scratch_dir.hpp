// A private temporary directory (mode 0700, a fresh name from mkdtemp), removed with everything
// in it when its owner is destroyed. The CTF ingester keeps its repaired views of damaged traces
// there (stream_repair.hpp): the user's input is never written to.
//
// A worker killed by a signal runs no destructor, so the parent makes one directory per worker
// and hands it to the child in the environment (kScratchEnv): the child makes its own directory
// inside it, and the parent removes the whole of it after reaping the child, however it ended.
#pragma once

#include <filesystem>
#include <string_view>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::string_view kScratchEnv = "APCGATE_CTF_SCRATCH_DIR";

class ScratchDir {
  public:
    // A new directory "PREFIX-XXXXXX" in `parent`.
    static Result<ScratchDir> make(const std::filesystem::path& parent, std::string_view prefix);
    // Where a process makes its scratch directories: kScratchEnv when set (a worker), else the
    // system's temporary directory.
    static std::filesystem::path default_parent();

    ScratchDir() = default;
    ~ScratchDir() { remove(); }
    ScratchDir(ScratchDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
    ScratchDir& operator=(ScratchDir&& other) noexcept;
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] bool empty() const { return path_.empty(); }

  private:
    explicit ScratchDir(std::filesystem::path p) : path_(std::move(p)) {}
    void remove();

    std::filesystem::path path_;
};

}  // namespace apcgate::collectors::ctf
