#include "udp_probe.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "protocol/wire/socket_address.hpp"

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
        return ::sendto(fd_, bytes.data(), bytes.size(), 0, wire::sockaddr_of(to), sizeof to) ==
               static_cast<ssize_t>(bytes.size());
    }
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    if (::inet_pton(AF_INET, address.c_str(), &to.sin_addr) != 1) return false;
    return ::sendto(fd_, bytes.data(), bytes.size(), 0, wire::sockaddr_of(to), sizeof to) ==
           static_cast<ssize_t>(bytes.size());
}

std::optional<std::uint16_t> UdpProbe::bind_any() {
    sockaddr_storage a{};
    socklen_t len = 0;
    if (ipv6_) {
        sockaddr_in6 sin6{};
        sin6.sin6_family = AF_INET6;
        sin6.sin6_addr = in6addr_any;
        std::memcpy(&a, &sin6, sizeof sin6);
        len = sizeof sin6;
    } else {
        sockaddr_in sin{};
        sin.sin_family = AF_INET;
        sin.sin_addr.s_addr = htonl(INADDR_ANY);
        std::memcpy(&a, &sin, sizeof sin);
        len = sizeof sin;
    }
    if (::bind(fd_, wire::sockaddr_of(a), len) != 0) return std::nullopt;
    if (::getsockname(fd_, wire::sockaddr_of(a), &len) != 0) return std::nullopt;
    return ntohs(ipv6_ ? wire::family_address<sockaddr_in6>(a).sin6_port
                       : wire::family_address<sockaddr_in>(a).sin_port);
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
