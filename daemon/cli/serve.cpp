// `apcgate serve`: the daemon. ServeSupervisor (serve_supervisor.hpp) does the work: the TCP
// server, Streamline discovery, systemd notifications, SIGTERM/SIGHUP.
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>

#include "daemon/cli/cli.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/server/serve_supervisor.hpp"
#include "daemon/service/exit_codes.hpp"
#include "daemon/service/heap_policy.hpp"
#include "daemon/service/journal_log.hpp"
#include "daemon/service/logging.hpp"

namespace apcgate::daemon {

int run_serve(const ServeOptions& options) {
    use_journal_priorities();  // before the first line: "<6>..." when stderr is the journal
    if (!use_capture_heap_policy()) spdlog::debug("glibc kept its own heap policy");
    if (options.discovery_ports.size() > kMaxDiscoveryPorts) {
        spdlog::error("--discovery-port: at most {} ports", kMaxDiscoveryPorts);
        return kExitUsage;
    }
    ServeSupervisor supervisor(options);
    return supervisor.run();
}

namespace {

// The command line as parsed: the limits in the units their options take.
struct ServeCommandLine {
    ServeOptions options;
    unsigned handshake_timeout_s = 0;
    unsigned idle_timeout_s = 0;
    unsigned send_backlog_mib = 0;
};

// Where it listens and keeps its state: -p/--port, --listen, --state-dir.
void add_listen_options(CLI::App* cmd, ServeOptions& serve) {
    cmd->add_option("-p,--port", serve.server.port, "TCP port")->capture_default_str();
    cmd->add_option("--listen", serve.server.listen,
                    "Address to listen on; the default '::' is every interface (IPv6 and IPv4). "
                    "The protocol has no authentication: use 127.0.0.1 and an ssh tunnel on "
                    "untrusted networks")
        ->capture_default_str();
    cmd->add_option("--state-dir", serve.state_dir,
                    "Where the delivered configuration persists (default: $STATE_DIRECTORY, "
                    "/var/lib/apcgate as root, else ~/.local/state/apcgate)");
}

// What a capture holds and how it is framed: --source (with the XRay symbol options), --framing.
void add_capture_options(CLI::App* cmd, ServeOptions& serve) {
    cmd->add_option("--source", serve.sources,
                    "Stream this trace (FMT:PATH or PATH; repeatable) as the capture instead "
                    "of live data; it is read afresh at each capture start");
    add_xray_symbol_options(cmd, serve.binaries, serve.debug_dirs);
    cmd->add_option("--framing", serve.server.framing,
                    "gator (default) or perf: the frames of live captures (see record "
                    "--framing); trace inputs (--source) always use gator")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Framing>{{"gator", Framing::Gator}, {"perf", Framing::Perf}}));
}

// How many connections, and how long and how much each may take: --max-connections,
// --handshake-timeout, --idle-timeout, --max-send-backlog (in the units of `line`).
void add_connection_limit_options(CLI::App* cmd, ServeCommandLine& line) {
    ServerOptions& server = line.options.server;
    cmd->add_option("--max-connections", server.max_connections,
                    "Connections served at once; when all are taken, a new one takes the "
                    "slot of one still without a handshake, else of the longest idle one "
                    "without a capture")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
    line.handshake_timeout_s = static_cast<unsigned>(server.limits.handshake_timeout.count());
    cmd->add_option("--handshake-timeout", line.handshake_timeout_s,
                    "Seconds from connecting to the end of the handshake before a "
                    "connection is closed (0: no limit)")
        ->capture_default_str()
        ->check(CLI::Range(0, 3600));
    line.idle_timeout_s = static_cast<unsigned>(server.limits.idle_timeout.count());
    cmd->add_option("--idle-timeout", line.idle_timeout_s,
                    "Seconds without a command before a connection without a capture is "
                    "closed (0: never); a capture's connection is never closed for this")
        ->capture_default_str()
        ->check(CLI::Range(0, 86400));
    line.send_backlog_mib = static_cast<unsigned>(server.limits.max_send_backlog >> 20);
    cmd->add_option("--max-send-backlog", line.send_backlog_mib,
                    "MiB queued for a client that does not read before its capture is "
                    "stopped and it is closed with an Error")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
}

// Streamline's UDP target discovery: --no-discovery, --discovery-port.
void add_discovery_options(CLI::App* cmd, ServeOptions& serve) {
    cmd->add_flag_callback(
        "--no-discovery", [&serve] { serve.discovery = false; },
        "Do not answer Streamline's UDP target discovery (by default UDP ports 30001 and 30003 on "
        "every interface, or only the --listen address's interface)");
    cmd->add_option("--discovery-port", serve.discovery_ports,
                    "UDP ports answering discovery, comma-separated or repeated (default "
                    "30001,30003; 0: a free port)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// The parsed command line into ServeOptions (limits in their own units, the options given), then
// the daemon.
int run_serve_command_line(ServeCommandLine& line, const CLI::App& cmd) {
    ServeOptions& o = line.options;
    o.server.limits.handshake_timeout = std::chrono::seconds(line.handshake_timeout_s);
    o.server.limits.idle_timeout = std::chrono::seconds(line.idle_timeout_s);
    o.server.limits.max_send_backlog = std::size_t{line.send_backlog_mib} << 20;
    // What the command line gave beats the settings file (serve_supervisor.hpp).
    for (const auto* opt : cmd.get_options())
        if (opt->count() > 0) o.given.push_back(opt->get_name());
    setup_logging(o.log_level);
    return run_serve(o);
}

}  // namespace

Subcommand add_serve_command(CLI::App& parent) {
    auto line = std::make_shared<ServeCommandLine>();
    ServeOptions& serve = line->options;
    auto* serve_cmd = parent.add_subcommand(
        "serve", "Serve Streamline over TCP (the default): XML exchange and live APC frames");
    add_log_level_option(serve_cmd, serve.log_level);
    add_live_collector_options(serve_cmd, serve.collectors);
    add_listen_options(serve_cmd, serve);
    add_capture_options(serve_cmd, serve);
    add_connection_limit_options(serve_cmd, *line);
    serve_cmd
        ->add_option("--config-file", serve.config_file,
                     "Settings file (/etc/default/apcgate: APCGATE_PORT=, APCGATE_LISTEN=, "
                     "APCGATE_SOURCES=, ...); options given here win; re-read on SIGHUP")
        ->check(CLI::ExistingFile);
    add_discovery_options(serve_cmd, serve);
    return {serve_cmd, [line, serve_cmd] { return run_serve_command_line(*line, *serve_cmd); }};
}

}  // namespace apcgate::daemon
