// `apcgate serve` as a long-running service: the TCP server with its collectors and capture
// service (one "stack"), Streamline discovery, systemd notifications and the signals.
//
//   SIGINT/SIGTERM  STOPPING=1; a running capture gets its last frames and end of sequence;
//                   connections drain for at most 5 s; a second signal exits at once.
//   SIGHUP          re-reads --config-file. The log level applies at once; new sources apply
//                   when no capture is running (at once, or when the running one ends): the
//                   stack is rebuilt on the same port and open connections are closed.
//                   Port, listen address, discovery and connection limits need a restart (said
//                   in the log). A bad file is reported and the running settings stay.
// A status poll (4 per second) keeps STATUS= ("idle: ..." / "capturing: ...") current and
// finishes deferred work; it never touches a capture.
#pragma once

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/capture/capture_service.hpp"
#include "daemon/server/serve_options.hpp"
#include "daemon/server/server.hpp"
#include "daemon/service/discovery.hpp"
#include "daemon/service/service_config.hpp"
#include "daemon/service/systemd_notify.hpp"

namespace apcgate::daemon {

// Command-line options with the file's settings filled in where no option was given.
ServeOptions merge_service_config(const ServeOptions& cli, const ServiceConfig& file);

// What a SIGHUP cannot apply while running: the names of the settings that differ.
std::vector<std::string> settings_needing_restart(const ServeOptions& running,
                                                  const ServeOptions& wanted);

class ServeSupervisor {
  public:
    explicit ServeSupervisor(ServeOptions cli);
    ~ServeSupervisor();
    ServeSupervisor(const ServeSupervisor&) = delete;
    ServeSupervisor& operator=(const ServeSupervisor&) = delete;

    // Serves until a signal stops it; returns the process exit code.
    int run();

  private:
    struct Stack;  // collectors + capture service + server, replaced whole on a source reload

    Result<std::unique_ptr<Stack>> open_stack(CollectorSet collectors, std::uint16_t port);
    void start_discovery();
    void stop_discovery();
    void on_stop_signal(int sig);
    void on_hup();
    void on_tick();
    void arm_stop_signals();
    void arm_hup();
    void arm_tick();
    void swap_in_pending_sources();
    [[nodiscard]] std::string status_text() const;
    [[nodiscard]] std::size_t open_connections() const;

    ServeOptions cli_;
    ServeOptions effective_;
    asio::io_context io_{1};
    std::unique_ptr<Stack> stack_;
    std::vector<std::unique_ptr<Stack>> retiring_;  // shut down, waiting for their connections
    std::optional<CollectorSet> pending_;           // reloaded sources waiting for an idle moment
    std::vector<std::unique_ptr<DiscoveryResponder>> discovery_;  // one per UDP port
    SystemdNotifier notify_;
    asio::signal_set stop_signals_{io_, SIGINT, SIGTERM};
    asio::signal_set hup_{io_, SIGHUP};
    asio::steady_timer tick_{io_};
    bool stopping_ = false;
    std::chrono::steady_clock::time_point drain_deadline_{};
    int exit_code_ = 0;
};

}  // namespace apcgate::daemon
