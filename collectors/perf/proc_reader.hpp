// What the perf collector reads from /proc (root injectable, so tests use fake trees): the
// processes and threads alive at capture start, their names and images, and their executable
// mappings (proc(5), /proc/PID/maps):
//
//   maps-line := START "-" END " " PERMS " " OFFSET " " DEV " " INODE [spaces PATHNAME]
//                (START, END, OFFSET hex; PERMS like "r-xp")
//
// Only executable mappings with a path are kept; malformed lines are skipped and counted.
// Tasks that vanish while being read are normal on a live system: they read as empty.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::collectors::perf {

struct MapsEntry {
    std::uint64_t start = 0, end = 0, pgoff = 0;
    std::string path;
};

// Executable, file- or pseudo-file-backed ("[vdso]") mappings of a maps text.
std::vector<MapsEntry> parse_maps(std::string_view text, std::size_t* malformed = nullptr);

// Tgid from a /proc/PID/status text.
std::optional<std::int32_t> parse_status_tgid(std::string_view text);

class ProcReader {
  public:
    explicit ProcReader(std::filesystem::path root = "/proc") : root_(std::move(root)) {}

    [[nodiscard]] std::vector<std::int32_t> pids() const;
    [[nodiscard]] std::vector<std::int32_t> tids(std::int32_t pid) const;
    [[nodiscard]] std::optional<std::int32_t> tgid(std::int32_t tid) const;
    [[nodiscard]] std::string comm(std::int32_t pid, std::int32_t tid) const;  // "" if gone
    // The process image, as procfs names it for Proc frames: the /proc/PID/exe target, else the
    // first word of the command line, else "[comm]" (kernel threads).
    [[nodiscard]] std::string image(std::int32_t pid) const;
    [[nodiscard]] std::vector<MapsEntry> maps(std::int32_t pid) const;
    [[nodiscard]] const std::filesystem::path& root() const { return root_; }

  private:
    std::filesystem::path root_;
};

}  // namespace apcgate::collectors::perf
