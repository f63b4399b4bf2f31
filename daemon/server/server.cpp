#include "daemon/server/server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/ip/v6_only.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>

#include "protocol/gator/command.hpp"

namespace apcgate::daemon {

Server::Server(asio::io_context& io, ServerOptions options, CaptureService& service)
    : io_(io), options_(std::move(options)), service_(service), acceptor_(io) {}

Result<asio::ip::tcp::endpoint> Server::listen() {
    auto bound = listen_on(options_.listen);
    // Boards built without IPv6 cannot open "::": the default then means every IPv4 interface.
    if (!bound && options_.listen == "::") {
        spdlog::info("IPv6 unavailable ({}); listening on 0.0.0.0", bound.error().message);
        acceptor_ = asio::ip::tcp::acceptor(io_);
        bound = listen_on("0.0.0.0");
    }
    return bound;
}

Result<asio::ip::tcp::endpoint> Server::listen_on(const std::string& where) {
    std::error_code ec;
    const auto address = asio::ip::make_address(where, ec);
    if (ec)
        return Error::at(ErrorKind::Usage,
                         "invalid listen address '" + where + "': " + ec.message());
    const asio::ip::tcp::endpoint endpoint(address, options_.port);
    auto fail = [&](const char* what) {
        return Error::at(ErrorKind::Io, std::string(what) + " " + where + " port " +
                                            std::to_string(options_.port) + ": " + ec.message());
    };
    acceptor_.open(endpoint.protocol(), ec);
    if (ec) return fail("cannot open socket for");
    acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
    if (address.is_v6() && address.to_v6().is_unspecified()) {
        acceptor_.set_option(asio::ip::v6_only(false), ec);  // "::" also serves IPv4
        if (ec) return fail("cannot enable IPv4 on");
    }
    acceptor_.bind(endpoint, ec);
    if (ec) return fail("cannot bind");
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return fail("cannot listen on");
    return acceptor_.local_endpoint();
}

void Server::start() {
    asio::co_spawn(
        io_, [this] { return accept_loop(); }, asio::detached);
}

void Server::reap() {
    connections_.erase(
        std::remove_if(connections_.begin(), connections_.end(),
                       [](const std::weak_ptr<Connection>& w) { return w.expired(); }),
        connections_.end());
}

std::size_t Server::connections() const {
    return static_cast<std::size_t>(std::count_if(connections_.begin(), connections_.end(),
                                                  [](const auto& w) { return !w.expired(); }));
}

bool Server::make_room() {
    std::vector<std::shared_ptr<Connection>> open;
    std::vector<SlotState> states;
    for (const auto& w : connections_) {
        if (auto c = w.lock()) {
            states.push_back(c->slot_state());
            open.push_back(std::move(c));
        }
    }
    const auto victim = slot_to_free(states);
    if (!victim) return false;
    const SlotState& s = states[*victim];
    const std::string age = std::to_string(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - s.since)
            .count());
    std::string why = "idle for " + age + " s";
    if (s.closing)
        why = "it was closing";
    else if (!s.handshake_done)
        why = "no handshake after " + age + " s";
    open[*victim]->evict(why);
    // Its slot is free now, though it may take a moment (kCloseGrace at most) to be gone.
    std::erase_if(connections_,
                  [&](const std::weak_ptr<Connection>& w) { return w.lock() == open[*victim]; });
    return true;
}

asio::awaitable<void> Server::accept_loop() {
    for (;;) {
        std::error_code ec;
        asio::ip::tcp::socket socket =
            co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
        if (stopping_ || ec == asio::error::operation_aborted) break;
        if (ec) {
            // EMFILE and friends: log, pause briefly so we do not spin, keep serving.
            spdlog::warn("accept failed: {}", ec.message());
            asio::steady_timer pause(io_, std::chrono::milliseconds(100));
            co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        reap();
        if (connections_.size() >= options_.max_connections && !make_room()) {
            const auto err = gator::response(gator::ResponseCode::Error, "too many connections");
            asio::write(socket, asio::buffer(err), ec);  // small, best effort
            socket.close(ec);
            spdlog::warn("refused a connection: {} already open, each holding a capture",
                         connections_.size());
            continue;
        }
        socket.set_option(asio::ip::tcp::no_delay(true), ec);
        auto conn = std::make_shared<Connection>(std::move(socket), service_, options_.limits,
                                                 options_.framing);
        connections_.push_back(conn);
        conn->start();
    }
}

void Server::shutdown(const std::string& reason) {
    if (stopping_) return;
    stopping_ = true;
    spdlog::info("shutting down: {}", reason);
    std::error_code ec;
    acceptor_.close(ec);
    for (auto& w : connections_)
        if (auto c = w.lock()) c->shutdown(reason);
}

}  // namespace apcgate::daemon
