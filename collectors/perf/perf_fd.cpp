#include "collectors/perf/perf_fd.hpp"

#include <sys/syscall.h>

#include <cerrno>
#include <cstring>

namespace apcgate::collectors::perf {

EventOpener kernel_opener() {
    return [](perf_event_attr& attr, pid_t pid, int cpu, int group_fd, unsigned long flags) {
        const long fd =
            ::syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
        return fd < 0 ? -errno : static_cast<int>(fd);
    };
}

std::string open_failure(const std::string& what, int cpu, int neg_errno) {
    std::string s = "perf_event_open(" + what + ")";
    if (cpu >= 0) s += " on cpu " + std::to_string(cpu);
    s += ": ";
    s += std::strerror(-neg_errno);
    switch (-neg_errno) {
        case ENOENT:
        case EOPNOTSUPP:
            s += " (the kernel exposes no such event here)";
            break;
        case EACCES:
        case EPERM:
            s += " (needs root or CAP_PERFMON, or a lower perf_event_paranoid)";
            break;
        case EMFILE:
            s += " (too many open files: raise the fd limit)";
            break;
        default:
            break;
    }
    return s;
}

}  // namespace apcgate::collectors::perf
