// How a capture's collectors are made, the one path every front end takes: the target's own
// collectors (/proc and /sys, annotations, perf) for `serve` and `record`, or trace inputs
// (`convert`, `serve --source`) opened and declared into one catalog.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "daemon/capture/capture_service.hpp"
#include "daemon/service/framing.hpp"

namespace apcgate::daemon {

// What `serve` and `record` say about this target's own collectors (make_live_collectors()).
struct LiveCollectorOptions {
    std::filesystem::path proc_root = "/proc";  // injectable OS roots (tests use fake trees)
    std::filesystem::path sys_root = "/sys";
    // Application annotations (collectors/annotate): --no-annotate, --annotate-fifo PATH
    // (empty: the default path, "none": no text form), --annotate-socket-name NAME (abstract
    // data socket; the parent is NAME-parent), --annotate-tcp-port PORT (parent; data PORT+1;
    // 0: no TCP).
    bool annotate = true;
    std::string annotate_fifo;
    std::string annotate_socket_name = "streamline-annotate";
    std::uint16_t annotate_tcp_port = 8082;
    // Perf collector: follow these processes (their threads and children) instead of the whole
    // system; set by `record -- CMD` (a gated child that execs after the capture starts:
    // follow_from_exec) and `record --pid`.
    std::vector<std::int32_t> follow_pids;
    bool follow_from_exec = false;
    // The capture starts as soon as the collectors are made (`record`, not `serve`): probes may
    // leave what they opened open for it (collectors::perf::PerfOptions::capture_follows_probe).
    bool capture_follows_probe = false;
    // The process ends right after its capture (collectors::perf::PerfOptions::
    // tracepoint_release).
    bool exits_after_capture = false;
};

// The collectors of this target (/proc and /sys, annotations, perf), declared and described for
// the live captures' `framing`.
CollectorSet make_live_collectors(const LiveCollectorOptions& options, Framing framing);
// Trace inputs (`convert`'s, or `serve --source`'s) opened as one collector set: each resolved
// to its format (detected, or `format`), opened, and declared into the catalog; the target is
// named `target_name` unless an input names it. Placing them on a timeline is the caller's
// (convert places them once, serve at every capture).
Result<CollectorSet> open_trace_inputs(const std::vector<std::string>& sources,
                                       const std::string& format,
                                       const std::vector<std::filesystem::path>& binaries,
                                       const std::vector<std::filesystem::path>& debug_dirs,
                                       const std::string& target_name);
// The collectors of `serve --source`: the given trace inputs instead of live data, their notes
// and their placement's logged.
Result<CollectorSet> make_ingest_collectors(const std::vector<std::string>& sources,
                                            const std::string& format,
                                            const std::vector<std::filesystem::path>& binaries,
                                            const std::vector<std::filesystem::path>& debug_dirs);

}  // namespace apcgate::daemon
