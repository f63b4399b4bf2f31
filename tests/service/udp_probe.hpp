// A tiny blocking UDP client for the discovery tests: what Streamline does when it scans for
// targets (send DST_REQ, collect STR_ANS answers), only ever to loopback addresses.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace apcgate::service_test {

class UdpProbe {
  public:
    explicit UdpProbe(bool ipv6 = false);
    ~UdpProbe();
    UdpProbe(const UdpProbe&) = delete;
    UdpProbe& operator=(const UdpProbe&) = delete;

    [[nodiscard]] bool ok() const { return fd_ >= 0; }
    // Binds the wildcard address on a free port (0.0.0.0 or [::]) and returns the port.
    std::optional<std::uint16_t> bind_any();
    bool send(const std::string& address, std::uint16_t port, std::span<const std::uint8_t> bytes);
    // The next datagram, or nullopt after `timeout`.
    std::optional<std::vector<std::uint8_t>> receive(std::chrono::milliseconds timeout);

  private:
    int fd_ = -1;
    bool ipv6_;
};

// Streamline's 12-byte request.
std::vector<std::uint8_t> discovery_request();

}  // namespace apcgate::service_test
