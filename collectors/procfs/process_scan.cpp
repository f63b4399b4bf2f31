#include "collectors/procfs/process_scan.hpp"

#include <dirent.h>

#include <memory>
#include <optional>

#include "collectors/procfs/file_reader.hpp"
#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {
namespace {

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};
using DirPtr = std::unique_ptr<DIR, DirCloser>;

// Numeric directory entries (pids, tids) of `dir`; empty when it cannot be listed.
std::vector<std::int32_t> numeric_entries(const std::string& dir) {
    std::vector<std::int32_t> ids;
    DirPtr d(::opendir(dir.c_str()));
    if (!d) return ids;
    while (const dirent* e = ::readdir(d.get())) {
        const auto id = parse_u64(e->d_name);
        if (id && *id > 0 && *id <= 0x7fffffff) ids.push_back(static_cast<std::int32_t>(*id));
    }
    return ids;
}

// The content of a comm file without its newline; nullopt when it cannot be read.
std::optional<std::string> read_comm(const std::string& path, std::string& buf) {
    if (!read_file(path, buf)) return std::nullopt;
    while (!buf.empty() && (buf.back() == '\n' || buf.back() == '\0')) buf.pop_back();
    return buf;
}

}  // namespace

std::string process_image(const std::string& exe_link, std::string_view cmdline,
                          std::string_view comm) {
    if (!exe_link.empty()) return exe_link;
    const std::string_view first = cmdline.substr(0, cmdline.find('\0'));
    if (!first.empty()) return std::string(first);
    std::string image;
    image.reserve(comm.size() + 2);
    image.append("[").append(comm).append("]");
    return image;
}

void scan_threads(const std::filesystem::path& proc_root, std::size_t max_threads,
                  std::vector<model::Event>& out, ProcfsStatistics& counts) {
    const std::string root = proc_root.native() + "/";
    std::string buf;
    std::string cmdline;
    std::size_t named = 0;  // in this scan (the limit is per scan; `counts` may hold more)
    for (const std::int32_t pid : numeric_entries(proc_root.native())) {
        const std::string pid_dir = root + std::to_string(pid) + "/";
        const std::vector<std::int32_t> tids = numeric_entries(pid_dir + "task");
        if (tids.empty()) {  // exited since the listing (a live process has at least one task)
            ++counts[ProcfsStat::TasksVanished];
            continue;
        }
        if (named >= max_threads) {  // over the limit: count, don't read
            counts[ProcfsStat::ThreadsSkipped] += tids.size();
            continue;
        }
        const auto process_comm = read_comm(pid_dir + "comm", buf);
        if (!process_comm) {
            ++counts[ProcfsStat::TasksVanished];
            continue;
        }
        if (!read_file(pid_dir + "cmdline", cmdline)) cmdline.clear();
        const std::string image =
            process_image(read_link(pid_dir + "exe").value_or(""), cmdline, *process_comm);

        for (const std::int32_t tid : tids) {
            if (named >= max_threads) {
                ++counts[ProcfsStat::ThreadsSkipped];
                continue;
            }
            auto comm = read_comm(pid_dir + "task/" + std::to_string(tid) + "/comm", buf);
            if (!comm) {
                ++counts[ProcfsStat::TasksVanished];
                continue;
            }
            out.emplace_back(model::ProcComm{0, 0, pid, tid, image, *comm});
            out.emplace_back(model::ThreadName{0, 0, tid, std::move(*comm)});
            ++named;
            ++counts[ProcfsStat::ThreadsNamed];
        }
    }
}

}  // namespace apcgate::collectors::procfs
