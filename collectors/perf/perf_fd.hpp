// Owning file descriptors and the perf_event_open(2) entry point. The opener is a function so
// tests can stand in for the kernel (e.g. pretend a hardware PMU exists by opening software
// events in its place); everything the collector opens goes through it.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <utility>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::perf {

// Owning perf event fd: the project's one RAII fd type.
using PerfFd = wire::UniqueFd;

// Returns an fd, or -errno. The attr may be adjusted by the opener (tests).
using EventOpener = std::function<int(perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                                      unsigned long flags)>;

// The real system call (with PERF_FLAG_FD_CLOEXEC added).
EventOpener kernel_opener();

// "perf_event_open(<what>) on cpu N: <strerror>" with a hint for the usual errnos.
std::string open_failure(const std::string& what, int cpu, int neg_errno);

}  // namespace apcgate::collectors::perf
