#include "collectors/annotate/sockets.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>

#include <cerrno>
#include <cstring>

#include "protocol/model/timeline_clock.hpp"
#include "protocol/wire/socket_address.hpp"

namespace apcgate::collectors::annotate {

namespace {

Error sys_error(const std::string& what) {
    return Error::at(ErrorKind::Io, what + ": " + std::strerror(errno));
}

Result<Fd> bind_and_listen(Fd fd, const sockaddr* addr, socklen_t len, int backlog,
                           const std::string& label) {
    if (::bind(fd.get(), addr, len) != 0) return sys_error("cannot bind " + label);
    if (::listen(fd.get(), backlog) != 0) return sys_error("cannot listen on " + label);
    return fd;
}

// sockaddr_un for a filesystem path, or nullopt when the path is too long for one.
std::optional<sockaddr_un> unix_address(const std::filesystem::path& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string& s = path.native();
    if (s.size() >= sizeof addr.sun_path) return std::nullopt;
    std::memcpy(addr.sun_path, s.data(), s.size());
    return addr;
}

}  // namespace

std::int64_t monotonic_now_ns() {
    return model::timeline_clock_ns();
}

Result<Fd> listen_abstract(std::string_view name, int backlog) {
    const std::string label = "@" + std::string(name);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (name.size() + 1 > sizeof addr.sun_path)
        return Error::at(ErrorKind::Usage, "socket name too long: " + label);
    std::memcpy(addr.sun_path + 1, name.data(), name.size());  // sun_path[0] = 0: abstract
    Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return sys_error("cannot create socket " + label);
    const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    return bind_and_listen(std::move(fd), wire::sockaddr_of(addr), len, backlog, label);
}

Result<Fd> listen_tcp(const std::string& address, std::uint16_t port, int backlog) {
    const std::string label = "[" + address + "]:" + std::to_string(port);
    sockaddr_storage storage{};
    socklen_t len = 0;
    int family = AF_INET;
    if (address.find(':') != std::string::npos) {
        family = AF_INET6;
        sockaddr_in6 a6{};
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons(port);
        if (::inet_pton(AF_INET6, address.c_str(), &a6.sin6_addr) != 1)
            return Error::at(ErrorKind::Usage, "bad address " + address);
        std::memcpy(&storage, &a6, sizeof a6);
        len = sizeof a6;
    } else {
        sockaddr_in a4{};
        a4.sin_family = AF_INET;
        a4.sin_port = htons(port);
        if (::inet_pton(AF_INET, address.c_str(), &a4.sin_addr) != 1)
            return Error::at(ErrorKind::Usage, "bad address " + address);
        std::memcpy(&storage, &a4, sizeof a4);
        len = sizeof a4;
    }
    Fd fd(::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return sys_error("cannot create socket " + label);
    const int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (family == AF_INET6) ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    return bind_and_listen(std::move(fd), wire::sockaddr_of(storage), len, backlog, label);
}

Result<Fd> listen_unix_path(const std::filesystem::path& path, mode_t mode, int backlog) {
    const auto addr = unix_address(path);
    if (!addr) return Error::at(ErrorKind::Usage, "socket path too long: " + path.string());
    const sockaddr* sa = wire::sockaddr_of(*addr);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode))
            return Error::at(ErrorKind::Refused,
                             path.string() + " exists and is not a socket; not replacing it");
        // A socket file outlives its daemon: replace it unless someone still listens there.
        Fd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (probe.valid() && ::connect(probe.get(), sa, sizeof *addr) == 0)
            return Error::at(ErrorKind::Refused, path.string() + " is in use by another process");
        ::unlink(path.c_str());
    }
    Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return sys_error("cannot create socket " + path.string());
    auto bound = bind_and_listen(std::move(fd), sa, sizeof *addr, backlog, path.string());
    if (bound && ::chmod(path.c_str(), mode) != 0)
        return sys_error("cannot chmod " + path.string());
    return bound;
}

Status make_fifo(const std::filesystem::path& path, mode_t mode) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISFIFO(st.st_mode))
            return Error::at(ErrorKind::Refused,
                             path.string() + " exists and is not a FIFO; not replacing it");
        // Opening for writing without blocking succeeds only while a reader has it open.
        Fd probe(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC));
        if (probe.valid())
            return Error::at(ErrorKind::Refused, path.string() + " is read by another process");
        ::unlink(path.c_str());
    }
    if (::mkfifo(path.c_str(), mode) != 0) return sys_error("cannot create FIFO " + path.string());
    // mkfifo applies the umask; the mode asked for is the one wanted.
    if (::chmod(path.c_str(), mode) != 0) return sys_error("cannot chmod " + path.string());
    return {};
}

Result<Fd> open_fifo_reader(const std::filesystem::path& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid()) return sys_error("cannot open FIFO " + path.string());
    return fd;
}

std::optional<Fd> accept_connection(int listen_fd, int& err) {
    const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        err = errno;
        return std::nullopt;
    }
    err = 0;
    return Fd(fd);
}

std::optional<pid_t> peer_pid(int fd) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.pid <= 0)
        return std::nullopt;
    return cred.pid;
}

std::string endpoint_label(int fd) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (::getsockname(fd, wire::sockaddr_of(ss), &len) != 0) return "?";
    char buf[INET6_ADDRSTRLEN] = {};
    if (ss.ss_family == AF_INET) {
        const auto a = wire::family_address<sockaddr_in>(ss);
        ::inet_ntop(AF_INET, &a.sin_addr, buf, sizeof buf);
        return std::string(buf) + ":" + std::to_string(ntohs(a.sin_port));
    }
    if (ss.ss_family == AF_INET6) {
        const auto a = wire::family_address<sockaddr_in6>(ss);
        ::inet_ntop(AF_INET6, &a.sin6_addr, buf, sizeof buf);
        return "[" + std::string(buf) + "]:" + std::to_string(ntohs(a.sin6_port));
    }
    const auto u = wire::family_address<sockaddr_un>(ss);
    const auto n =
        len > offsetof(sockaddr_un, sun_path) ? len - offsetof(sockaddr_un, sun_path) : 0;
    if (n > 1 && u.sun_path[0] == '\0') return "@" + std::string(u.sun_path + 1, n - 1);
    return n > 0 ? std::string(u.sun_path, ::strnlen(u.sun_path, sizeof u.sun_path)) : "unix";
}

}  // namespace apcgate::collectors::annotate
