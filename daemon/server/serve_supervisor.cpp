#include "daemon/server/serve_supervisor.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>

#include "daemon/service/exit_codes.hpp"

namespace apcgate::daemon {

namespace {

constexpr auto kTick = std::chrono::milliseconds(250);
constexpr auto kDrainTick = std::chrono::milliseconds(20);
constexpr auto kDrainGrace = std::chrono::seconds(5);

// The ports in the order given, each once; every 0 (a free port, for tests) is kept.
std::vector<std::uint16_t> unique_ports(const std::vector<std::uint16_t>& ports) {
    std::vector<std::uint16_t> out;
    for (const std::uint16_t p : ports)
        if (p == 0 || std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    return out;
}

bool given(const ServeOptions& o, const char* name) {
    return std::find(o.given.begin(), o.given.end(), name) != o.given.end();
}

Result<CollectorSet> build_collectors(const ServeOptions& o) {
    if (o.sources.empty()) return make_live_collectors(o.collectors, o.server.framing);
    // Trace inputs are events, not perf records: they have no Perf-type form.
    if (o.server.framing == Framing::Perf)
        spdlog::warn(
            "--framing perf is for live captures: the trace inputs (--source) are "
            "streamed in the gator (v6.8) framing, handshake GATOR 680");
    return make_ingest_collectors(o.sources, "", o.binaries, o.debug_dirs);
}

std::filesystem::path state_dir_of(const ServeOptions& o) {
    return o.state_dir.empty() ? default_state_dir() : o.state_dir;
}

}  // namespace

ServeOptions merge_service_config(const ServeOptions& cli, const ServiceConfig& file) {
    ServeOptions o = cli;
    if (file.port && !given(cli, "--port")) o.server.port = *file.port;
    if (file.listen && !given(cli, "--listen")) o.server.listen = *file.listen;
    if (file.sources && !given(cli, "--source")) o.sources = *file.sources;
    if (file.binary && !given(cli, "--binary")) o.binaries = {*file.binary};
    if (file.debug_dirs && !given(cli, "--debug-dir"))
        o.debug_dirs.assign(file.debug_dirs->begin(), file.debug_dirs->end());
    if (file.log_level && !given(cli, "--log-level")) o.log_level = *file.log_level;
    if (file.discovery && !given(cli, "--no-discovery")) o.discovery = *file.discovery;
    if (file.discovery_ports && !given(cli, "--discovery-port"))
        o.discovery_ports = *file.discovery_ports;
    if (file.max_connections && !given(cli, "--max-connections"))
        o.server.max_connections = *file.max_connections;
    if (file.framing && !given(cli, "--framing")) o.server.framing = *file.framing;
    if (file.handshake_timeout_s && !given(cli, "--handshake-timeout"))
        o.server.limits.handshake_timeout = std::chrono::seconds(*file.handshake_timeout_s);
    if (file.idle_timeout_s && !given(cli, "--idle-timeout"))
        o.server.limits.idle_timeout = std::chrono::seconds(*file.idle_timeout_s);
    if (file.max_send_backlog_mib && !given(cli, "--max-send-backlog"))
        o.server.limits.max_send_backlog = std::size_t{*file.max_send_backlog_mib} << 20;
    return o;
}

std::vector<std::string> settings_needing_restart(const ServeOptions& running,
                                                  const ServeOptions& wanted) {
    std::vector<std::string> out;
    if (running.server.port != wanted.server.port) out.emplace_back("APCGATE_PORT");
    if (running.server.listen != wanted.server.listen) out.emplace_back("APCGATE_LISTEN");
    if (running.discovery != wanted.discovery) out.emplace_back("APCGATE_DISCOVERY");
    if (running.discovery_ports != wanted.discovery_ports)
        out.emplace_back("APCGATE_DISCOVERY_PORT");
    if (running.server.max_connections != wanted.server.max_connections)
        out.emplace_back("APCGATE_MAX_CONNECTIONS");
    if (running.server.framing != wanted.server.framing) out.emplace_back("APCGATE_FRAMING");
    if (running.server.limits.handshake_timeout != wanted.server.limits.handshake_timeout)
        out.emplace_back("APCGATE_HANDSHAKE_TIMEOUT");
    if (running.server.limits.idle_timeout != wanted.server.limits.idle_timeout)
        out.emplace_back("APCGATE_IDLE_TIMEOUT");
    if (running.server.limits.max_send_backlog != wanted.server.limits.max_send_backlog)
        out.emplace_back("APCGATE_MAX_SEND_BACKLOG");
    return out;
}

struct ServeSupervisor::Stack {
    CollectorSet collectors;
    std::unique_ptr<CaptureService> service;  // refers to `collectors`
    std::unique_ptr<Server> server;           // refers to `service`; destroyed first
    asio::ip::tcp::endpoint endpoint;
};

ServeSupervisor::ServeSupervisor(ServeOptions cli) : cli_(std::move(cli)), effective_(cli_) {}
ServeSupervisor::~ServeSupervisor() = default;

Result<std::unique_ptr<ServeSupervisor::Stack>> ServeSupervisor::open_stack(CollectorSet collectors,
                                                                            std::uint16_t port) {
    auto s = std::make_unique<Stack>();
    s->collectors = std::move(collectors);
    s->service =
        std::make_unique<CaptureService>(s->collectors, ConfigStore(state_dir_of(effective_)));
    ServerOptions options = effective_.server;
    options.port = port;
    s->server = std::make_unique<Server>(io_, options, *s->service);
    auto endpoint = s->server->listen();
    if (!endpoint) return std::move(endpoint).take_error();
    s->endpoint = *endpoint;
    s->server->start();
    return s;
}

int ServeSupervisor::run() {
    if (!cli_.config_file.empty()) {
        auto file = load_service_config(cli_.config_file);
        if (!file) {
            spdlog::error("{}", file.error().to_string());
            return kExitInvalidInput;
        }
        for (const auto& w : file->warnings) spdlog::warn("{}", w);
        effective_ = merge_service_config(cli_, *file);
        spdlog::set_level(spdlog::level::from_str(effective_.log_level));
    }
    auto collectors = build_collectors(effective_);
    if (!collectors) {
        spdlog::error("{}", collectors.error().to_string());
        return kExitInvalidInput;
    }
    auto stack = open_stack(std::move(collectors).value(), effective_.server.port);
    if (!stack) {
        spdlog::error("{}", stack.error().to_string());
        return kExitFailure;
    }
    stack_ = std::move(stack).value();
    spdlog::info("apcgate {} listening on [{}]:{} (state in {}); {} counters available",
                 APCGATE_VERSION, stack_->endpoint.address().to_string(), stack_->endpoint.port(),
                 state_dir_of(effective_).string(),
                 stack_->collectors.catalog.available_names().size());
    start_discovery();
    arm_stop_signals();
    arm_hup();
    arm_tick();
    notify_.ready(status_text());
    io_.run();
    stop_discovery();
    spdlog::info("stopped");
    return exit_code_;
}

void ServeSupervisor::start_discovery() {
    if (!effective_.discovery) {
        spdlog::info("discovery: off (--no-discovery)");
        return;
    }
    std::string failures;
    for (const std::uint16_t port : unique_ports(effective_.discovery_ports)) {
        DiscoveryOptions options{effective_.server.listen, port, stack_->endpoint.port()};
        auto responder = std::make_unique<DiscoveryResponder>(io_, options);
        auto bound = responder->open();
        if (!bound) {
            spdlog::warn("discovery: not on UDP port {}: {}", port, bound.error().to_string());
            failures += (failures.empty() ? "" : "; ") + bound.error().to_string();
            continue;
        }
        responder->start();
        spdlog::info("discovery: answering Streamline on UDP [{}]:{}{}",
                     bound->address().to_string(), bound->port(),
                     responder->interface_index()
                         ? " (interface of " + effective_.server.listen + " only)"
                         : std::string());
        discovery_.push_back(std::move(responder));
    }
    if (discovery_.empty()) spdlog::warn("discovery: off: {}", failures);
}

void ServeSupervisor::stop_discovery() {
    for (auto& responder : discovery_) responder->stop();
}

void ServeSupervisor::arm_stop_signals() {
    stop_signals_.async_wait([this](const std::error_code& ec, int sig) {
        if (!ec) on_stop_signal(sig);
    });
}

void ServeSupervisor::arm_hup() {
    hup_.async_wait([this](const std::error_code& ec, int) {
        if (!ec) on_hup();
    });
}

void ServeSupervisor::arm_tick() {
    tick_.expires_after(
        stopping_ ? std::chrono::duration_cast<std::chrono::milliseconds>(kDrainTick) : kTick);
    tick_.async_wait([this](const std::error_code& ec) {
        if (!ec) on_tick();
    });
}

std::size_t ServeSupervisor::open_connections() const {
    std::size_t n = stack_ ? stack_->server->connections() : 0;
    for (const auto& s : retiring_) n += s->server->connections();
    return n;
}

std::string ServeSupervisor::status_text() const {
    const bool capturing = stack_ && stack_->service->capture_running();
    const std::size_t n = open_connections();
    return std::string(capturing ? "capturing" : "idle") + ": listening on [" +
           stack_->endpoint.address().to_string() + "]:" + std::to_string(stack_->endpoint.port()) +
           ", " + std::to_string(n) + (n == 1 ? " connection" : " connections");
}

void ServeSupervisor::on_stop_signal(int sig) {
    if (stopping_) {  // a second signal: stop now
        io_.stop();
        return;
    }
    const std::string why = sig == SIGINT ? "SIGINT" : "SIGTERM";
    stopping_ = true;
    notify_.stopping("stopping: " + why);
    stack_->server->shutdown(why);  // ends a running capture cleanly
    pending_.reset();
    stop_discovery();
    std::error_code ec;
    hup_.cancel(ec);
    drain_deadline_ = std::chrono::steady_clock::now() + kDrainGrace;
    tick_.cancel();
    arm_tick();
    arm_stop_signals();
}

void ServeSupervisor::on_tick() {
    if (stopping_) {
        if (open_connections() == 0) {
            std::error_code ec;
            stop_signals_.cancel(ec);  // nothing left: io_.run() returns
            return;
        }
        if (std::chrono::steady_clock::now() >= drain_deadline_) {
            spdlog::warn("connections did not finish in time; stopping");
            io_.stop();
            return;
        }
        arm_tick();
        return;
    }
    std::erase_if(retiring_, [](const auto& s) { return s->server->connections() == 0; });
    if (pending_ && !stack_->service->capture_running()) swap_in_pending_sources();
    if (!stopping_) notify_.status(status_text());
    arm_tick();
}

void ServeSupervisor::on_hup() {
    arm_hup();
    if (stopping_) return;
    if (cli_.config_file.empty()) {
        spdlog::info("SIGHUP: no --config-file to re-read");
        return;
    }
    notify_.reloading("reloading " + cli_.config_file.string());
    auto file = load_service_config(cli_.config_file);
    if (!file) {
        spdlog::error("SIGHUP: {}; keeping the running settings", file.error().to_string());
        notify_.ready(status_text());
        return;
    }
    for (const auto& w : file->warnings) spdlog::warn("{}", w);
    const ServeOptions wanted = merge_service_config(cli_, *file);
    for (const auto& name : settings_needing_restart(effective_, wanted))
        spdlog::warn("SIGHUP: {} changed; it applies after a restart (systemctl restart apcgate)",
                     name);
    if (wanted.log_level != effective_.log_level) {
        effective_.log_level = wanted.log_level;
        spdlog::set_level(spdlog::level::from_str(wanted.log_level));
        spdlog::info("SIGHUP: log level now {}", wanted.log_level);
    }
    if (wanted.sources != effective_.sources || wanted.binaries != effective_.binaries ||
        wanted.debug_dirs != effective_.debug_dirs) {
        auto fresh = build_collectors(wanted);
        if (!fresh) {
            spdlog::error("SIGHUP: sources not changed: {}", fresh.error().to_string());
        } else {
            effective_.sources = wanted.sources;
            effective_.binaries = wanted.binaries;
            effective_.debug_dirs = wanted.debug_dirs;
            pending_ = std::move(fresh).value();
            if (stack_->service->capture_running())
                spdlog::info("SIGHUP: new sources apply when the running capture ends");
            else
                swap_in_pending_sources();
        }
    }
    spdlog::info("SIGHUP: {} re-read", cli_.config_file.string());
    if (!stopping_) notify_.ready(status_text());
}

void ServeSupervisor::swap_in_pending_sources() {
    CollectorSet collectors = std::move(*pending_);
    pending_.reset();
    const std::uint16_t port = stack_->endpoint.port();  // the same port, even if --port 0
    stack_->server->shutdown("reloading sources");
    auto fresh = open_stack(std::move(collectors), port);
    if (!fresh) {
        spdlog::error("cannot serve the reloaded sources: {}", fresh.error().to_string());
        exit_code_ = kExitFailure;  // systemd's Restart=on-failure starts us afresh
        on_stop_signal(SIGTERM);
        return;
    }
    retiring_.push_back(std::move(stack_));
    stack_ = std::move(fresh).value();
    spdlog::info("sources reloaded ({}): listening on [{}]:{}; {} counters available",
                 effective_.sources.empty()
                     ? "live"
                     : std::to_string(effective_.sources.size()) + " trace inputs",
                 stack_->endpoint.address().to_string(), stack_->endpoint.port(),
                 stack_->collectors.catalog.available_names().size());
}

}  // namespace apcgate::daemon
