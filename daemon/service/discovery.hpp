// Answers Streamline's UDP target discovery (see discovery_packet.hpp for the datagrams), so a
// board running apcgate shows up in Streamline's target list like one running gatord.
//
// Where it listens follows the TCP --listen address:
//   "::" (the default)  UDP [::]:30001, IPv6 and IPv4 (0.0.0.0:30001 where IPv6 is missing);
//   "0.0.0.0"           UDP 0.0.0.0:30001, IPv4 only;
//   a specific address  the wildcard of its family (broadcasts never reach a socket bound to a
//                       unicast address), answering only datagrams that arrived on the
//                       interface carrying that address (IP_PKTINFO), so --listen 127.0.0.1
//                       stays invisible to the network.
// Answers are rate-limited (ReplyBudget). Failing to bind is not fatal: the caller logs it and
// serves TCP without discovery.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/udp.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "daemon/service/discovery_packet.hpp"
#include "daemon/service/reply_budget.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

struct DiscoveryOptions {
    std::string listen = "::";            // the TCP listen address
    std::uint16_t port = kDiscoveryPort;  // 0 picks a free port (tests)
    std::uint16_t tcp_port = kGatorDefaultPort;
    double answers_per_second = 20.0;  // ReplyBudget: steady rate and burst
    double answer_burst = 20.0;
};

class DiscoveryResponder {
  public:
    DiscoveryResponder(asio::io_context& io, DiscoveryOptions options);

    // Binds; returns the bound endpoint.
    Result<asio::ip::udp::endpoint> open();
    void start();
    void stop();

    [[nodiscard]] std::uint64_t answered() const { return answered_; }
    [[nodiscard]] std::uint64_t ignored() const { return ignored_; }
    [[nodiscard]] std::uint64_t refused() const { return budget_.refused(); }
    // The interface answers are restricted to (a specific --listen address), if any.
    [[nodiscard]] std::optional<unsigned> interface_index() const { return ifindex_; }

  private:
    Result<asio::ip::udp::endpoint> bind(const asio::ip::udp::endpoint& where, bool dual_stack);
    asio::awaitable<void> loop();
    bool receive_one();  // false when nothing is left to read

    DiscoveryOptions options_;
    asio::ip::udp::socket socket_;
    std::optional<unsigned> ifindex_;
    ReplyBudget budget_;
    std::uint64_t answered_ = 0;
    std::uint64_t ignored_ = 0;
    bool warned_refused_ = false;
};

}  // namespace apcgate::daemon
