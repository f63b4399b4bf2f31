// The TCP front end: listens (default all interfaces, port 8080, like gatord), accepts
// connections and hands each to a Connection. With max_connections open, a new connection takes
// the slot of one that is doing nothing useful (slot_policy.hpp) rather than being refused, so
// idle or half-open sockets cannot keep Streamline out. shutdown() stops accepting and ends
// every connection cleanly: a running capture gets its last frames and end of sequence first.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <memory>
#include <string>
#include <vector>

#include "daemon/capture/capture_service.hpp"
#include "daemon/server/connection.hpp"
#include "daemon/service/framing.hpp"

namespace apcgate::daemon {

struct ServerOptions {
    std::string listen = "::";  // all interfaces, IPv6 and IPv4; "0.0.0.0" or "127.0.0.1" etc.
    std::uint16_t port = 8080;
    std::size_t max_connections = 16;
    ConnectionLimits limits;
    Framing framing = Framing::Gator;  // of live captures (framing.hpp)
};

class Server {
  public:
    Server(asio::io_context& io, ServerOptions options, CaptureService& service);

    // Binds and listens; returns the bound endpoint (port 0 picks a free port).
    Result<asio::ip::tcp::endpoint> listen();
    void start();
    void shutdown(const std::string& reason);
    [[nodiscard]] std::size_t connections() const;

  private:
    Result<asio::ip::tcp::endpoint> listen_on(const std::string& address);
    asio::awaitable<void> accept_loop();
    void reap();
    // All slots taken: frees one (slot_policy.hpp) for the connection just accepted; false when
    // every connection holds a capture.
    bool make_room();

    asio::io_context& io_;
    ServerOptions options_;
    CaptureService& service_;
    asio::ip::tcp::acceptor acceptor_;
    std::vector<std::weak_ptr<Connection>> connections_;
    bool stopping_ = false;
};

}  // namespace apcgate::daemon
