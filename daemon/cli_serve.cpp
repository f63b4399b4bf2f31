// `apcgate serve`: the daemon. ServeSupervisor (serve_supervisor.hpp) does the work: the TCP
// server, Streamline discovery, systemd notifications, SIGTERM/SIGHUP.
#include "daemon/cli.hpp"
#include "daemon/journal_log.hpp"
#include "daemon/serve_supervisor.hpp"

namespace apcgate::daemon {

int run_serve(const ServeOptions& options) {
    use_journal_priorities();  // before the first line: "<6>..." when stderr is the journal
    ServeSupervisor supervisor(options);
    return supervisor.run();
}

}  // namespace apcgate::daemon
