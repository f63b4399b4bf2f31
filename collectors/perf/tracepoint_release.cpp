#include "collectors/perf/tracepoint_release.hpp"

#include <unistd.h>

#include <algorithm>
#include <system_error>
#include <thread>

namespace apcgate::collectors::perf {
namespace {

void close_on_threads(std::vector<std::vector<PerfFd>>& groups) {
    std::vector<std::thread> closers;
    for (auto& group : groups) {
        try {
            closers.emplace_back([&group] { group.clear(); });
        } catch (const std::system_error&) {
            group.clear();  // no thread to be had: close them here, one wait after the other
        }
    }
    for (std::thread& t : closers) t.join();
    groups.clear();
}

// Closes [lo, hi], with a loop up to `last` where close_range(2) is missing (before Linux 5.9).
void close_span(unsigned lo, unsigned hi, unsigned last) {
    if (lo > hi || ::close_range(lo, hi, 0) == 0) return;
    for (unsigned fd = lo; fd <= std::min(hi, last); ++fd) ::close(static_cast<int>(fd));
}

// In the helper (a fork of a process with other threads): system calls only, no allocation.
[[noreturn]] void helper_main(const std::vector<int>& keep, unsigned last) {
    // Everything but the events first, so the helper holds nothing anyone waits on.
    unsigned from = 0;
    for (const int fd : keep) {
        const auto k = static_cast<unsigned>(fd);
        if (k > from) close_span(from, k - 1, last);
        from = k + 1;
    }
    close_span(from, ~0U, last);
    for (const int fd : keep) ::close(fd);  // the slow part: the tracepoints' last closes
    ::_exit(0);
}

}  // namespace

std::optional<pid_t> close_events(std::vector<PerfFd>& fds,
                                  const std::map<int, std::uint64_t>& tracepoint_of,
                                  TracepointRelease how) {
    std::map<std::uint64_t, std::vector<PerfFd>> by_tracepoint;
    for (PerfFd& fd : fds) {
        const auto it = tracepoint_of.find(fd.get());
        if (it != tracepoint_of.end()) by_tracepoint[it->second].push_back(std::move(fd));
    }
    fds.clear();  // the others, and the moved-from
    std::vector<std::vector<PerfFd>> groups;
    groups.reserve(by_tracepoint.size());
    for (auto& [id, group] : by_tracepoint) groups.push_back(std::move(group));
    if (how == TracepointRelease::Threads || groups.empty()) {
        close_on_threads(groups);
        return std::nullopt;
    }
    std::vector<int> keep;  // sorted before the fork: the helper only reads it
    for (const auto& group : groups)
        for (const PerfFd& fd : group) keep.push_back(fd.get());
    std::sort(keep.begin(), keep.end());
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    const unsigned last = open_max > 0 ? static_cast<unsigned>(std::min(open_max, 1L << 20)) : 1024;
    const pid_t pid = ::fork();
    if (pid == 0) helper_main(keep, last);
    if (pid < 0) {
        close_on_threads(groups);
        return std::nullopt;
    }
    // This process's copies are not the last references: closing them does not wait.
    groups.clear();
    return pid;
}

}  // namespace apcgate::collectors::perf
