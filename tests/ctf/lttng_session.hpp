// Makes LTTng-UST traces during a test: a session daemon (started if none runs; it runs as root
// here), one tracing session per trace, the test program run inside it. Sessions of concurrent
// test processes are serialised with a file lock, so each trace holds only its own program's
// events. LTTng's ring buffers are set to block instead of discarding, so a trace is complete.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::ctf_test {

// Empty when LTTng can trace user space here; otherwise why not (the test skips with it).
std::string lttng_unavailable();

struct UstTrace {
    std::filesystem::path dir;          // the session's output directory (a parent of traces)
    std::vector<std::string> contexts;  // e.g. "vpid", "perf:thread:task-clock"
};

// Traces `command` (program and arguments) with every apcgate_ctf_test, tracef and tracelog
// event and the given contexts; the trace lands in `out` (which must not exist).
Result<UstTrace> make_ust_trace(const std::filesystem::path& out,
                                const std::vector<std::string>& command,
                                const std::vector<std::string>& contexts);

// A snapshot session (`lttng create --snapshot`, channels in overwrite mode): runs each of
// `commands` in turn and records a snapshot after each (`lttng snapshot record`), so `out` holds
// one snapshot-N-... directory per command, each a copy of the same traces (same UUIDs) up to
// that point.
Result<std::filesystem::path> make_ust_snapshots(
    const std::filesystem::path& out, const std::vector<std::vector<std::string>>& commands);

}  // namespace apcgate::ctf_test
