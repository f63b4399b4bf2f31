// `apcgate serve`: the daemon. ServeSupervisor (serve_supervisor.hpp) does the work: the TCP
// server, Streamline discovery, systemd notifications, SIGTERM/SIGHUP.
#include <spdlog/spdlog.h>

#include "daemon/cli/cli.hpp"
#include "daemon/cli/exit_codes.hpp"
#include "daemon/service/journal_log.hpp"
#include "daemon/server/serve_supervisor.hpp"

namespace apcgate::daemon {

int run_serve(const ServeOptions& options) {
    use_journal_priorities();  // before the first line: "<6>..." when stderr is the journal
    if (options.discovery_ports.size() > kMaxDiscoveryPorts) {
        spdlog::error("--discovery-port: at most {} ports", kMaxDiscoveryPorts);
        return kExitUsage;
    }
    ServeSupervisor supervisor(options);
    return supervisor.run();
}

}  // namespace apcgate::daemon
