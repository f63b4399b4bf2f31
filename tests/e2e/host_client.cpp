#include "host_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "protocol/wire/socket_address.hpp"

namespace apcgate::e2e {

HostClient::~HostClient() {
    close();
}
HostClient::HostClient(HostClient&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
HostClient& HostClient::operator=(HostClient&& o) noexcept {
    if (this != &o) {
        close();
        fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
}

std::optional<HostClient> HostClient::connect(int port) {
    HostClient c;
    c.fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(c.fd_, wire::sockaddr_of(addr), sizeof addr) != 0) return std::nullopt;
    int one = 1;
    ::setsockopt(c.fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return c;
}

void HostClient::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void HostClient::abort() {
    if (fd_ < 0) return;
    linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close();
}

bool HostClient::send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool HostClient::send_command(std::uint8_t code, std::string_view body) {
    std::string msg(1, static_cast<char>(code));
    const auto n = static_cast<std::uint32_t>(body.size());
    for (int i = 0; i < 4; ++i) msg.push_back(static_cast<char>(n >> (8 * i)));
    msg.append(body);
    return send_raw(msg);
}

bool HostClient::read_exact(std::span<std::uint8_t> out,
                            std::chrono::steady_clock::time_point deadline) {
    std::size_t got = 0;
    while (got < out.size()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
        const ssize_t n = ::recv(fd_, out.data() + got, out.size() - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        got += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> HostClient::handshake(std::string_view lines) {
    if (!send_raw(lines)) return std::nullopt;
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    std::uint8_t c = 0;
    while (read_exact({&c, 1}, deadline)) {
        line.push_back(static_cast<char>(c));
        if (c == '\n' || line.size() > 64) return line;
    }
    return std::nullopt;
}

std::optional<Response> HostClient::read(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::uint8_t header[5];
    if (!read_exact({header, 1}, deadline)) return std::nullopt;
    // A message once begun is read whole whatever the caller's deadline: cutting it would lose
    // the stream's framing for every later read. It gets at least 10 s, and as long as the
    // caller would wait (the daemon may be busy stopping a capture before it writes the rest).
    const auto whole =
        std::max(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(10));
    if (!read_exact({header + 1, 4}, whole)) return std::nullopt;
    const std::uint32_t len =
        header[1] | header[2] << 8 | header[3] << 16 | static_cast<std::uint32_t>(header[4]) << 24;
    if (len > 256u * 1024 * 1024) return std::nullopt;
    Response r;
    r.code = header[0];
    r.body.resize(len);
    if (len > 0 &&
        !read_exact({reinterpret_cast<std::uint8_t*>(r.body.data()), len}, whole))  // NOLINT
        return std::nullopt;
    return r;
}

bool HostClient::wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EINTR)) return true;
    }
}

std::optional<Response> HostClient::request(std::uint8_t code, std::string_view body) {
    if (!send_command(code, body)) return std::nullopt;
    return read();
}

std::optional<Response> HostClient::request_xml(std::string_view type) {
    return request(kRequestXml, "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<request type=\"" +
                                    std::string(type) + "\"/>");
}

}  // namespace apcgate::e2e
