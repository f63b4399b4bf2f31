// What `apcgate serve` runs with: the command line's options, merged with the settings file
// (serve_supervisor.hpp) and re-read on SIGHUP.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "daemon/capture/collectors_setup.hpp"
#include "daemon/server/server.hpp"

namespace apcgate::daemon {

struct ServeOptions {
    std::string log_level = "info";
    LiveCollectorOptions collectors;  // unless `sources` are given
    ServerOptions server;
    std::filesystem::path state_dir;   // empty: default_state_dir()
    std::vector<std::string> sources;  // --source fmt:PATH: stream these instead of live data
    std::vector<std::filesystem::path> binaries;  // --binary for XRay sources (binary_for_log)
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};  // --debug-dir
    // --config-file: /etc/default/apcgate-style settings (service_config.hpp), re-read on SIGHUP.
    std::filesystem::path config_file;
    bool discovery = true;  // --no-discovery: ignore Streamline's UDP discovery
    // --discovery-port: UDP ports answered (0: a free port, for tests). gatord listens on 30001
    // (UDP_REQ_PORT in its UdpListener.h); Streamline has also been seen asking on 30003.
    std::vector<std::uint16_t> discovery_ports = {30001, 30003};
    std::vector<std::string> given;  // options given on the command line: beat the file
};

}  // namespace apcgate::daemon
