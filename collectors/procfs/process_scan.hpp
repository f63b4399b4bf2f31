// Names every thread alive at capture start (ProcComm + ThreadName per /proc/PID/task/TID), so
// Streamline can label threads that existed before the capture's scheduler trace began.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/procfs/procfs_statistics.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::procfs {

inline constexpr std::size_t kDefaultMaxThreads = 65536;

// The image of a process for its ProcComm: /proc/PID/exe when readable, else the first
// NUL-separated word of /proc/PID/cmdline, else "[comm]" (kernel threads have neither).
std::string process_image(const std::string& exe_link, std::string_view cmdline,
                          std::string_view comm);

// Appends ProcComm and ThreadName (ts 0, core 0) for each thread under `proc_root`, at most
// `max_threads` of them (counted in ThreadsNamed, ThreadsSkipped, TasksVanished). Processes and
// threads that exit mid-scan are skipped: that race is normal on a live system.
void scan_threads(const std::filesystem::path& proc_root, std::size_t max_threads,
                  std::vector<model::Event>& out, ProcfsStatistics& counts);

}  // namespace apcgate::collectors::procfs
