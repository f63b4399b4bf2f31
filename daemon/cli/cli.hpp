// The subcommands behind `apcgate`. main() parses the command line into these options and
// returns what the run_* function returns (see exit_codes.hpp); nothing else exits.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "daemon/capture/framing.hpp"
#include "daemon/server/server.hpp"
#include "protocol/model/capture_settings.hpp"

namespace apcgate::daemon {

struct CommonOptions {
    std::string log_level = "info";
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
};

struct ServeOptions {
    CommonOptions common;
    ServerOptions server;
    std::filesystem::path state_dir;  // empty: default_state_dir()
    std::vector<std::string> sources;  // --source fmt:PATH: stream these instead of live data
    std::vector<std::filesystem::path> binaries;  // --binary for XRay sources (binary_for_log)
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};  // --debug-dir
    // --config-file: /etc/default/apcgate-style settings (service_config.hpp), re-read on SIGHUP.
    std::filesystem::path config_file;
    bool discovery = true;                 // --no-discovery: ignore Streamline's UDP discovery
    // --discovery-port: UDP ports answered (0: a free port, for tests). gatord listens on 30001
    // (UDP_REQ_PORT in its UdpListener.h); Streamline has also been seen asking on 30003.
    std::vector<std::uint16_t> discovery_ports = {30001, 30003};
    std::vector<std::string> given;        // options given on the command line: beat the file
};

struct RecordOptions {
    CommonOptions common;
    Framing framing = Framing::Gator;
    std::filesystem::path output;
    int duration_s = 0;
    std::filesystem::path session_file;
    std::filesystem::path config_file;
    std::optional<model::SampleRate> sample_rate;
    bool force = false;
    std::vector<std::string> command;  // run this and capture until it exits
    std::vector<std::int32_t> pids;    // --pid: follow these processes until they exit
};

struct InspectOptions {
    std::filesystem::path capture;
    bool json = false;
    bool dump = false;
};

// Where `report` and `diff` find the symbols of a capture's images (analysis/image_symbols.hpp).
struct SymbolArgs {
    std::vector<std::filesystem::path> binary_dirs;  // --binary-dir
    std::filesystem::path sysroot;                   // --sysroot
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};  // --debug-dir
};

struct ReportOptions {
    std::filesystem::path capture;
    SymbolArgs symbols;
    std::optional<std::int32_t> pid;  // --pid: functions and stacks of this process only
    std::optional<std::size_t> top;   // --top: rows per table (text default 20; else all)
    bool json = false;
    bool csv = false;
    bool folded = false;
};

struct DiffOptions {
    std::filesystem::path before, after;
    SymbolArgs symbols;
    std::optional<std::int32_t> pid;
    std::optional<std::size_t> top;
    bool json = false;
    bool csv = false;
    std::vector<std::string> fail_if;  // --fail-if rules (analysis/fail_rule.hpp)
};

struct ConvertOptions {
    std::vector<std::string> inputs;  // PATH or fmt:PATH
    std::filesystem::path output;
    std::string format;               // --format: forces every input
    std::vector<std::filesystem::path> binaries;  // --binary: XRay symbols (binary_for_log)
    // --debug-dir: where a stripped --binary's debug file may be (debug_file.hpp)
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};
    bool json = false;
    bool force = false;
    std::string log_level = "warn";
};

// The collectors of this target (/proc and /sys, annotations, perf), declared and described for
// the live captures' `framing`.
CollectorSet make_collectors(const CommonOptions& options, Framing framing);
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

int run_serve(const ServeOptions& options);
int run_record(const RecordOptions& options);
int run_convert(const ConvertOptions& options, std::ostream& out, std::ostream& err);
int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);
int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err);
int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& err);

}  // namespace apcgate::daemon
