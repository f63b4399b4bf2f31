#include "udp_probe.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace apcgate::service_test {

UdpProbe::UdpProbe(bool ipv6) : ipv6_(ipv6) {
    fd_ = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

UdpProbe::~UdpProbe() {
    if (fd_ >= 0) ::close(fd_);
}

bool UdpProbe::send(const std::string& address, std::uint16_t port,
                    std::span<const std::uint8_t> bytes) {
    if (ipv6_) {
        sockaddr_in6 to{};
        to.sin6_family = AF_INET6;
        to.sin6_port = htons(port);
        if (::inet_pton(AF_INET6, address.c_str(), &to.sin6_addr) != 1) return false;
        return ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&to),
                        sizeof to) == static_cast<ssize_t>(bytes.size());
    }
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    if (::inet_pton(AF_INET, address.c_str(), &to.sin_addr) != 1) return false;
    return ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&to),
                    sizeof to) == static_cast<ssize_t>(bytes.size());
}

std::optional<std::uint16_t> UdpProbe::bind_any() {
    sockaddr_storage a{};
    socklen_t len = 0;
    if (ipv6_) {
        auto* sin6 = reinterpret_cast<sockaddr_in6*>(&a);
        sin6->sin6_family = AF_INET6;
        sin6->sin6_addr = in6addr_any;
        len = sizeof *sin6;
    } else {
        auto* sin = reinterpret_cast<sockaddr_in*>(&a);
        sin->sin_family = AF_INET;
        sin->sin_addr.s_addr = htonl(INADDR_ANY);
        len = sizeof *sin;
    }
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), len) != 0) return std::nullopt;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return std::nullopt;
    return ntohs(ipv6_ ? reinterpret_cast<sockaddr_in6*>(&a)->sin6_port
                       : reinterpret_cast<sockaddr_in*>(&a)->sin_port);
}

std::optional<std::vector<std::uint8_t>> UdpProbe::receive(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) != 1) return std::nullopt;
    std::vector<std::uint8_t> buf(2048);
    const ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
    if (n < 0) return std::nullopt;
    buf.resize(static_cast<std::size_t>(n));
    return buf;
}

std::vector<std::uint8_t> discovery_request() {
    return {'D', 'S', 'T', '_', 'R', 'E', 'Q', ' ', 0, 0, 0, 0x64};
}

}  // namespace apcgate::service_test
