// apcgate: a capture daemon for Arm Streamline (serve), local captures (record), captures
// validated and summarised (inspect) and other trace formats converted (convert). main() parses
// the command line and returns the subcommand's exit code; it is the only place that exits.
#include <CLI/CLI.hpp>
#include <map>
#include <iostream>

#include "collectors/ctf/child_process.hpp"
#include "collectors/ctf/ctf_worker.hpp"
#include "daemon/cli/build_commit.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/exit_codes.hpp"
#include "daemon/service/logging.hpp"

using namespace apcgate::daemon;  // NOLINT(google-build-using-namespace): main only

namespace {

void add_common(CLI::App* app, CommonOptions& c) {
    app->add_option("--log-level", c.log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    app->add_option("--proc-root", c.proc_root, "Where /proc is (for tests and containers)")
        ->capture_default_str();
    app->add_option("--sys-root", c.sys_root, "Where /sys is")->capture_default_str();
    app->add_flag_callback(
        "--no-annotate", [&c] { c.annotate = false; },
        "Do not collect application annotations (Arm's annotation library, the text form)");
    app->add_option("--annotate-fifo", c.annotate_fifo,
                    "FIFO for one-line text annotations (a Unix socket PATH.sock beside it); "
                    "default /run/apcgate/annotate as root, else $XDG_RUNTIME_DIR/apcgate/"
                    "annotate; 'none': no text form");
    app->add_option("--annotate-socket-name", c.annotate_socket_name,
                    "Abstract socket Arm's annotation library connects to (NAME-parent is its "
                    "parent socket); change it only to run two daemons or tests")
        ->capture_default_str();
    app->add_option("--annotate-tcp-port", c.annotate_tcp_port,
                    "Loopback TCP port of annotation parent connections (data: PORT+1); 0: none")
        ->capture_default_str();
}

constexpr const char* kBinaryHelp =
    "XRay: the instrumented executable, for function names (repeatable: each log is named by "
    "the binary its file name gives, <base><program>.XXXXXX)";
constexpr const char* kDebugDirHelp =
    "XRay: where a stripped --binary's debug file may be, as DIR/.build-id/NN/REST.debug or "
    "DIR/BINARY_DIR/DEBUGLINK (repeatable; beside the binary and its .debug/ are looked at too)";

// --binary and --debug-dir (convert, serve): one value per occurrence, repeat the option for
// more; as list options they would take the arguments after them (the inputs) as their values.
void add_xray_symbols(CLI::App* app, std::vector<std::filesystem::path>& binaries,
                      std::vector<std::filesystem::path>& debug_dirs) {
    app->add_option("--binary", binaries, kBinaryHelp)
        ->check(CLI::ExistingFile)
        ->allow_extra_args(false);
    app->add_option("--debug-dir", debug_dirs, kDebugDirHelp)
        ->capture_default_str()
        ->allow_extra_args(false);
}

// --binary-dir, --sysroot, --debug-dir (report, diff): where the capture's images are read.
void add_symbol_args(CLI::App* app, SymbolArgs& s) {
    app->add_option("--binary-dir", s.binary_dirs,
                    "Read a sampled image from DIR/BASENAME instead of the path the capture names "
                    "(repeatable; for captures taken on another machine)")
        ->allow_extra_args(false);
    app->add_option("--sysroot", s.sysroot,
                    "Read a sampled image from DIR/PATH instead of PATH (the target's root "
                    "file system copied here)");
    app->add_option("--debug-dir", s.debug_dirs,
                    "Where a stripped image's debug file may be, as DIR/.build-id/NN/REST.debug "
                    "or DIR/IMAGE_DIR/DEBUGLINK (repeatable)")
        ->capture_default_str()
        ->allow_extra_args(false);
}

const std::map<std::string, apcgate::model::SampleRate> kRates{
    {"none", apcgate::model::SampleRate::None},
    {"low", apcgate::model::SampleRate::Low},
    {"normal", apcgate::model::SampleRate::Normal},
    {"high", apcgate::model::SampleRate::High}};

}  // namespace

int main(int argc, char** argv) {
    // The CTF ingester's worker process (collectors/ctf/ctf_worker.hpp): not a user command.
    if (argc >= 2 && argv[1] == apcgate::collectors::ctf::kWorkerCommand)
        return apcgate::collectors::ctf::run_worker(argc - 2, argv + 2,
                                                    apcgate::collectors::ctf::kWorkerOutputFd);
    CLI::App app{"apcgate: a Gator-protocol capture daemon for Arm Streamline", "apcgate"};
    app.footer(kExitCodesHelp);
    app.set_version_flag("--version", std::string("apcgate ") + APCGATE_VERSION + " (commit " +
                                          apcgate::build_commit() + ")");
    app.require_subcommand(0, 1);

    ServeOptions serve;
    auto* serve_cmd = app.add_subcommand(
        "serve", "Serve Streamline over TCP (the default): XML exchange and live APC frames");
    add_common(serve_cmd, serve.common);
    serve_cmd->add_option("-p,--port", serve.server.port, "TCP port")->capture_default_str();
    serve_cmd
        ->add_option("--listen", serve.server.listen,
                     "Address to listen on; the default '::' is every interface (IPv6 and IPv4). "
                     "The protocol has no authentication: use 127.0.0.1 and an ssh tunnel on "
                     "untrusted networks")
        ->capture_default_str();
    serve_cmd->add_option("--state-dir", serve.state_dir,
                          "Where the delivered configuration persists (default: $STATE_DIRECTORY, "
                          "/var/lib/apcgate as root, else ~/.local/state/apcgate)");
    serve_cmd->add_option("--source", serve.sources,
                          "Stream this trace (FMT:PATH or PATH; repeatable) as the capture instead "
                          "of live data; it is read afresh at each capture start");
    add_xray_symbols(serve_cmd, serve.binaries, serve.debug_dirs);
    serve_cmd
        ->add_option("--framing", serve.server.framing,
                     "gator (default) or perf: the frames of live captures (see record "
                     "--framing); trace inputs (--source) always use gator")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Framing>{{"gator", Framing::Gator}, {"perf", Framing::Perf}}));
    serve_cmd->add_option("--max-connections", serve.server.max_connections,
                          "Connections served at once; when all are taken, a new one takes the "
                          "slot of one still without a handshake, else of the longest idle one "
                          "without a capture")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
    auto handshake_timeout = static_cast<unsigned>(serve.server.limits.handshake_timeout.count());
    serve_cmd->add_option("--handshake-timeout", handshake_timeout,
                          "Seconds from connecting to the end of the handshake before a "
                          "connection is closed (0: no limit)")
        ->capture_default_str()
        ->check(CLI::Range(0, 3600));
    auto idle_timeout = static_cast<unsigned>(serve.server.limits.idle_timeout.count());
    serve_cmd->add_option("--idle-timeout", idle_timeout,
                          "Seconds without a command before a connection without a capture is "
                          "closed (0: never); a capture's connection is never closed for this")
        ->capture_default_str()
        ->check(CLI::Range(0, 86400));
    auto send_backlog_mib = static_cast<unsigned>(serve.server.limits.max_send_backlog >> 20);
    serve_cmd->add_option("--max-send-backlog", send_backlog_mib,
                          "MiB queued for a client that does not read before its capture is "
                          "stopped and it is closed with an Error")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
    serve_cmd
        ->add_option("--config-file", serve.config_file,
                     "Settings file (/etc/default/apcgate: APCGATE_PORT=, APCGATE_LISTEN=, "
                     "APCGATE_SOURCES=, ...); options given here win; re-read on SIGHUP")
        ->check(CLI::ExistingFile);
    serve_cmd->add_flag_callback(
        "--no-discovery", [&serve] { serve.discovery = false; },
        "Do not answer Streamline's UDP target discovery (by default UDP ports 30001 and 30003 on "
        "every interface, or only the --listen address's interface)");
    serve_cmd
        ->add_option("--discovery-port", serve.discovery_ports,
                     "UDP ports answering discovery, comma-separated or repeated (default "
                     "30001,30003; 0: a free port)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

    RecordOptions record;
    std::string record_rate;
    auto* record_cmd = app.add_subcommand(
        "record", "Capture locally into an .apc directory: record -o run.apc [-d S] [-- CMD ARGS]");
    add_common(record_cmd, record.common);
    record_cmd->add_option("-o,--output", record.output, "Capture directory to create (NAME.apc)")
        ->required();
    record_cmd->add_option("-d,--duration", record.duration_s, "Stop after this many seconds")
        ->check(CLI::NonNegativeNumber);
    record_cmd->add_option("--session", record.session_file, "Session XML to use")
        ->check(CLI::ExistingFile);
    record_cmd->add_option("--config", record.config_file, "Configuration XML (counters) to use")
        ->check(CLI::ExistingFile);
    record_cmd->add_option("--sample-rate", record_rate, "none, low, normal or high")
        ->check(CLI::IsMember({"none", "low", "normal", "high"}));
    record_cmd->add_flag("-f,--force", record.force,
                         "Overwrite the capture files of an existing directory");
    auto* record_command = record_cmd->add_option(
        "command", record.command,
        "Command to run (after --); only it, its threads and its children are captured, from "
        "its exec, and the capture stops when it exits");
    record_cmd
        ->add_option("--pid", record.pids,
                     "Follow these running processes (PID[,PID...]: their threads and new "
                     "children) instead of the whole system; stops when they have all exited")
        ->delimiter(',')
        ->check(CLI::PositiveNumber)
        ->excludes(record_command);
    record_cmd
        ->add_option("--framing", record.framing,
                     "gator (default): the documented v6.8 frames (type=\"Gator\"); perf: the "
                     "frames gatord 9.x writes (type=\"Perf\", the kernel's perf records "
                     "forwarded as they are)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Framing>{{"gator", Framing::Gator}, {"perf", Framing::Perf}}));

    InspectOptions inspect;
    auto* inspect_cmd = app.add_subcommand(
        "inspect", "Validate and summarise a capture (.apc directory)");
    inspect_cmd->add_option("capture", inspect.capture, "The .apc directory")->required();
    inspect_cmd->add_flag("--json", inspect.json, "Print the summary as JSON");
    inspect_cmd->add_flag("--dump", inspect.dump, "Print one line per message");

    ReportOptions report;
    auto* report_cmd = app.add_subcommand(
        "report", "Summarise what a capture shows: CPU time, hottest functions, spans, counters");
    report_cmd->add_option("capture", report.capture, "The .apc directory")->required();
    add_symbol_args(report_cmd, report.symbols);
    report_cmd->add_option("--pid", report.pid,
                           "Functions and stacks of this process only (default: every process)");
    report_cmd->add_option("--top", report.top,
                           "Rows per table (text: 20 by default; JSON and CSV: all by default)")
        ->check(CLI::PositiveNumber);
    auto* report_json = report_cmd->add_flag("--json", report.json, "Print the report as JSON");
    auto* report_csv = report_cmd->add_flag("--csv", report.csv,
                                            "Print the report as CSV, one block per table");
    auto* report_folded = report_cmd->add_flag(
        "--folded", report.folded,
        "Print the CPU samples' call stacks folded (outer;inner COUNT), for flame graphs");
    report_json->excludes(report_csv)->excludes(report_folded);
    report_csv->excludes(report_folded);

    DiffOptions diff;
    auto* diff_cmd = app.add_subcommand(
        "diff", "Compare the reports of two captures; --fail-if RULE exits 5 when it trips (CI)");
    diff_cmd->add_option("a", diff.before, "The first (baseline) .apc directory")->required();
    diff_cmd->add_option("b", diff.after, "The second .apc directory")->required();
    add_symbol_args(diff_cmd, diff.symbols);
    diff_cmd->add_option("--pid", diff.pid, "Functions of this process only (in both captures)");
    diff_cmd->add_option("--top", diff.top,
                         "Rows per table (text: 20 by default; JSON and CSV: all by default)")
        ->check(CLI::PositiveNumber);
    auto* diff_json = diff_cmd->add_flag("--json", diff.json, "Print the comparison as JSON");
    auto* diff_csv = diff_cmd->add_flag("--csv", diff.csv, "Print the comparison as CSV");
    diff_json->excludes(diff_csv);
    diff_cmd
        ->add_option("--fail-if", diff.fail_if,
                     "Exit 5 when this rule holds: SECTION[NAME].FIELD OP VALUE, e.g. "
                     "'spans[main].total_ns > +10%' (repeatable; see apcgate-diff(1))")
        ->allow_extra_args(false);

    ConvertOptions convert;
    auto* convert_cmd = app.add_subcommand(
        "convert",
        "Convert trace files (Barman buffers, LLVM XRay logs, Fuchsia FXT archives, CTF traces) "
        "into one capture on one timeline");
    convert_cmd->add_option("inputs", convert.inputs,
                            "Input traces: PATH (format detected from its magic bytes) or FMT:PATH")
        ->required();
    convert_cmd->add_option("-o,--output", convert.output, "Capture directory to create")->required();
    convert_cmd->add_option("--format", convert.format, "Force the format of every input")
        ->check(CLI::IsMember({"barman", "xray", "fxt", "ctf"}));
    add_xray_symbols(convert_cmd, convert.binaries, convert.debug_dirs);
    convert_cmd->add_flag("--json", convert.json,
                          "Print what was read, mapped and skipped per record kind as JSON");
    convert_cmd->add_flag("-f,--force", convert.force, "Overwrite the capture files of an existing directory");
    convert_cmd->add_option("--log-level", convert.log_level, "trace..off")->capture_default_str();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? kExitOk : kExitUsage;
    }

    if (*record_cmd) {
        setup_logging(record.common.log_level);
        if (!record_rate.empty()) record.sample_rate = kRates.at(record_rate);
        return run_record(record);
    }
    if (*inspect_cmd) return run_inspect(inspect, std::cout, std::cerr);
    if (*report_cmd) return run_report(report, std::cout, std::cerr);
    if (*diff_cmd) return run_diff(diff, std::cout, std::cerr);
    if (*convert_cmd) {
        setup_logging(convert.log_level);
        return run_convert(convert, std::cout, std::cerr);
    }
    serve.server.limits.handshake_timeout = std::chrono::seconds(handshake_timeout);
    serve.server.limits.idle_timeout = std::chrono::seconds(idle_timeout);
    serve.server.limits.max_send_backlog = std::size_t{send_backlog_mib} << 20;
    for (const auto* opt : serve_cmd->get_options())
        if (opt->count() > 0) serve.given.push_back(opt->get_name());
    setup_logging(serve.common.log_level);
    return run_serve(serve);
}
