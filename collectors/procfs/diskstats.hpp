// /proc/diskstats: sectors read and written per block device, and which devices are whole,
// hardware-backed disks (the ones whose I/O we sum).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace apcgate::collectors::procfs {

// The kernel counts diskstats sectors in 512-byte units whatever the device's sector size.
inline constexpr std::uint64_t kDiskstatsSectorBytes = 512;

struct DiskStatLine {
    std::string_view name;  // points into the parsed text
    std::uint64_t sectors_read = 0;
    std::uint64_t sectors_written = 0;
};

// Appends one entry per device to `out` (cleared first); returns the number of malformed lines.
int parse_diskstats(std::string_view text, std::vector<DiskStatLine>& out);

// Decides which diskstats devices count. Rule: a device counts when <sys>/block/<name>/device
// exists. Partitions are not in /sys/block at all (they are subdirectories of their disk), and
// virtual block devices — loop, ram, zram, device-mapper, md — have no `device` link; counting
// dm/md would count the same I/O twice (once on the stacked device, once on the disk), and
// loop/ram/zram I/O never reaches a disk. Answers are cached per name (one stat() per device per
// capture), since the hot path asks for every line of every sample.
class DiskFilter {
  public:
    explicit DiskFilter(std::filesystem::path sys_root) : sys_root_(std::move(sys_root)) {}

    // Whether <sys>/block exists at all: without sysfs there is no clear rule.
    [[nodiscard]] bool available() const;
    bool counts(std::string_view name);
    void forget() { cache_.clear(); }  // re-decide (e.g. at each capture start: hot-plug)

  private:
    std::filesystem::path sys_root_;
    std::vector<std::pair<std::string, bool>> cache_;
};

}  // namespace apcgate::collectors::procfs
