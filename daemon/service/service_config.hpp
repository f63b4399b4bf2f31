// The service's configuration file, /etc/default/apcgate (or `serve --config-file PATH`): the
// settings a packaged daemon is started with, re-read on SIGHUP. It stays a valid shell and
// systemd EnvironmentFile (Debian's /etc/default convention), so it is parsed, never sourced:
//
//   file       := line*                         at most kMaxServiceConfigBytes
//   line       := blank | comment | assignment
//   comment    := ws* '#' any*
//   assignment := ws* ["export" ws+] KEY '=' value ws* [ '#' any* ]
//   KEY        := [A-Za-z_][A-Za-z0-9_]*
//   value      := (bare | '"' dq-char* '"' | "'" any-but-quote* "'")*   pieces concatenate
//   bare       := any char but ws, '"', "'", '\' ('#' only inside a word); '\' escapes one char
//   dq-char    := any but '"' and '\' | '\' ('"' | '\' | '$' | '`')
//
// Keys (command-line options given explicitly win over the file):
//   APCGATE_PORT=8080          TCP port (--port)
//   APCGATE_LISTEN=::          listen address (--listen)
//   APCGATE_SOURCES=""         trace inputs streamed instead of live data, whitespace-separated
//                              FMT:PATH or PATH (--source); empty: live data
//   APCGATE_BINARY=            XRay: the instrumented executable (--binary)
//   APCGATE_DEBUG_DIRS=/usr/lib/debug  XRay: where a stripped binary's debug file may be,
//                              whitespace-separated (--debug-dir)
//   APCGATE_LOG_LEVEL=info     trace, debug, info, warn, error, critical or off (--log-level)
//   APCGATE_DISCOVERY=yes      answer Streamline's UDP discovery (no: --no-discovery)
//   APCGATE_DISCOVERY_PORT="30001 30003"  UDP ports of discovery requests, separated by spaces
//                              or commas (--discovery-port)
//   APCGATE_MAX_CONNECTIONS=16 connections served at once (--max-connections)
//   APCGATE_FRAMING=gator      gator or perf: the frames of live captures (--framing)
// Other keys are reported as warnings and ignored (other tools may share the file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/service/framing.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

inline constexpr std::size_t kMaxServiceConfigBytes = std::size_t{64} * 1024;
inline constexpr std::size_t kMaxDiscoveryPorts = 8;  // APCGATE_DISCOVERY_PORT, --discovery-port

struct ServiceConfig {
    std::optional<std::uint16_t> port;
    std::optional<std::string> listen;
    std::optional<std::vector<std::string>> sources;
    std::optional<std::string> binary;
    std::optional<std::vector<std::string>> debug_dirs;
    std::optional<std::string> log_level;
    std::optional<bool> discovery;
    std::optional<std::vector<std::uint16_t>> discovery_ports;
    std::optional<std::size_t> max_connections;
    std::optional<Framing> framing;
    std::optional<unsigned> handshake_timeout_s;   // APCGATE_HANDSHAKE_TIMEOUT, 0: none
    std::optional<unsigned> idle_timeout_s;        // APCGATE_IDLE_TIMEOUT, 0: never
    std::optional<unsigned> max_send_backlog_mib;  // APCGATE_MAX_SEND_BACKLOG
    std::vector<std::string> warnings;             // unknown keys, with their line
};

// Parses the text of a configuration file; `input` names it in errors, which carry the byte
// offset and line of the first bad assignment.
Result<ServiceConfig> parse_service_config(std::string_view text, const std::string& input);

// Reads and parses `path` (at most kMaxServiceConfigBytes).
Result<ServiceConfig> load_service_config(const std::filesystem::path& path);

}  // namespace apcgate::daemon
