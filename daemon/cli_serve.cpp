#include <spdlog/spdlog.h>

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <csignal>
#include <functional>

#include "daemon/cli.hpp"
#include "daemon/exit_codes.hpp"

namespace apcgate::daemon {

namespace {

// After a shutdown request, wait for connections to finish their last frames, but never longer
// than `grace`: a client that stopped reading must not keep the daemon alive.
void wait_for_drain(asio::io_context& io, Server& server, asio::signal_set& signals,
                    std::chrono::steady_clock::time_point deadline) {
    auto timer = std::make_shared<asio::steady_timer>(io, std::chrono::milliseconds(20));
    timer->async_wait([&io, &server, &signals, deadline, timer](const std::error_code&) {
        if (server.connections() == 0) {
            std::error_code ec;
            signals.cancel(ec);
            return;  // nothing left: io.run() returns
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            spdlog::warn("connections did not finish in time; stopping");
            io.stop();
            return;
        }
        wait_for_drain(io, server, signals, deadline);
    });
}

}  // namespace

int run_serve(const ServeOptions& options) {
    CollectorSet collectors;
    if (options.sources.empty()) {
        collectors = make_collectors(options.common);
    } else {
        auto ingest = make_ingest_collectors(options.sources, "", options.binary);
        if (!ingest) {
            spdlog::error("{}", ingest.error().to_string());
            return kExitInvalidInput;
        }
        collectors = std::move(ingest).value();
    }
    const auto state_dir = options.state_dir.empty() ? default_state_dir() : options.state_dir;
    CaptureService service(collectors, ConfigStore(state_dir));

    asio::io_context io(1);
    Server server(io, options.server, service);
    auto endpoint = server.listen();
    if (!endpoint) {
        spdlog::error("{}", endpoint.error().to_string());
        return kExitFailure;
    }
    server.start();
    spdlog::info("apcgate {} listening on [{}]:{} (state in {}); {} counters available",
                 APCGATE_VERSION, endpoint->address().to_string(), endpoint->port(),
                 state_dir.string(), collectors.catalog.available_names().size());

    asio::signal_set signals(io, SIGINT, SIGTERM);
    std::function<void(const std::error_code&, int)> on_signal;
    bool stopping = false;
    on_signal = [&](const std::error_code& ec, int sig) {
        if (ec) return;
        if (stopping) {  // a second signal: stop now
            io.stop();
            return;
        }
        stopping = true;
        server.shutdown(sig == SIGINT ? "SIGINT" : "SIGTERM");
        wait_for_drain(io, server, signals, std::chrono::steady_clock::now() + std::chrono::seconds(5));
        signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);
    io.run();
    spdlog::info("stopped");
    return kExitOk;
}

}  // namespace apcgate::daemon
