// Reading /proc and /sys files with plain POSIX calls. The sampled files are kept open and re-read
// with pread() from offset 0 each sample: procfs regenerates the content on every read at offset
// 0, so this is one syscall per file per sample instead of open+read+close (this is the hot path,
// up to 100 Hz). One-shot readers serve the files read once per capture (comm, cmdline, ...).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::procfs {

// Opens `path` read-only (O_CLOEXEC); an invalid wire::UniqueFd when it cannot be opened.
wire::UniqueFd open_read_only(const std::filesystem::path& path);

// A file that is read again and again. The buffer is reused between reads and grows when the
// content outgrows it (e.g. /proc/stat on a machine with many CPUs and interrupts).
class PolledFile {
  public:
    PolledFile() = default;
    explicit PolledFile(std::filesystem::path path) : path_(std::move(path)) {}

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] bool is_open() const { return fd_.valid(); }

    // The whole current content, valid until the next read(); nullopt when the file cannot be
    // opened or read. An empty or failed read reopens the file once, so a file that was replaced
    // (or a descriptor that went stale) recovers, and one that is gone reports an error.
    std::optional<std::string_view> read();
    void close() { fd_.reset(); }

  private:
    bool open();
    std::optional<std::string_view> read_open();

    std::filesystem::path path_;
    wire::UniqueFd fd_;
    std::vector<char> buf_ = std::vector<char>(4096);
};

// Reads a whole (small) file into `out`; false when it cannot be opened or read.
bool read_file(const std::filesystem::path& path, std::string& out);
// The target of a symbolic link; nullopt when it cannot be read (missing, or not permitted).
std::optional<std::string> read_link(const std::filesystem::path& path);

}  // namespace apcgate::collectors::procfs
