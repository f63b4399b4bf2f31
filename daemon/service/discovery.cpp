#include "daemon/service/discovery.hpp"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/ip/v6_only.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <cerrno>
#include <cstring>
#include <memory>

#include "protocol/wire/socket_address.hpp"

namespace apcgate::daemon {

namespace {

std::string host_name() {
    std::array<char, 256> buf{};
    if (::gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
    return buf.data();
}

// The index of the interface that carries `a`, found through getifaddrs().
Result<unsigned> interface_of(const asio::ip::address& a) {
    if (a.is_v6() && a.to_v6().scope_id() != 0) return static_cast<unsigned>(a.to_v6().scope_id());
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return Error::at(ErrorKind::Io, std::string("getifaddrs failed: ") + std::strerror(errno));
    std::unique_ptr<ifaddrs, void (*)(ifaddrs*)> guard(list, ::freeifaddrs);
    for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
        if (i->ifa_addr == nullptr) continue;
        bool match = false;
        if (a.is_v4() && i->ifa_addr->sa_family == AF_INET) {
            sockaddr_in sin{};
            std::memcpy(&sin, i->ifa_addr, sizeof sin);
            const auto want = a.to_v4().to_bytes();
            match = std::memcmp(&sin.sin_addr, want.data(), want.size()) == 0;
        } else if (a.is_v6() && i->ifa_addr->sa_family == AF_INET6) {
            sockaddr_in6 sin6{};
            std::memcpy(&sin6, i->ifa_addr, sizeof sin6);
            const auto want = a.to_v6().to_bytes();
            match = std::memcmp(&sin6.sin6_addr, want.data(), want.size()) == 0;
        }
        if (match) {
            if (const unsigned index = ::if_nametoindex(i->ifa_name); index != 0) return index;
        }
    }
    return Error::at(ErrorKind::Usage, "no interface has address " + a.to_string());
}

// The interface a datagram arrived on, from its IP_PKTINFO / IPV6_PKTINFO control message.
std::optional<unsigned> arrival_interface(msghdr& msg) {
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
            in_pktinfo info{};
            std::memcpy(&info, CMSG_DATA(c), sizeof info);
            return static_cast<unsigned>(info.ipi_ifindex);
        }
        if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
            in6_pktinfo info{};
            std::memcpy(&info, CMSG_DATA(c), sizeof info);
            return info.ipi6_ifindex;
        }
    }
    return std::nullopt;
}

}  // namespace

DiscoveryResponder::DiscoveryResponder(asio::io_context& io, DiscoveryOptions options)
    : options_(std::move(options)),
      socket_(io),
      budget_(options_.answers_per_second, options_.answer_burst) {}

Result<asio::ip::udp::endpoint> DiscoveryResponder::bind(const asio::ip::udp::endpoint& where,
                                                         bool dual_stack) {
    std::error_code ec;
    auto fail = [&](const char* what) {
        std::error_code ignored;
        socket_.close(ignored);
        return Error::at(ErrorKind::Io, std::string(what) + " UDP " + where.address().to_string() +
                                            " port " + std::to_string(where.port()) + ": " +
                                            ec.message());
    };
    socket_.open(where.protocol(), ec);
    if (ec) return fail("cannot open socket for");
    if (where.address().is_v6()) {
        socket_.set_option(asio::ip::v6_only(!dual_stack), ec);
        if (ec) return fail("cannot set IPV6_V6ONLY on");
    }
    if (ifindex_) {  // we filter by arrival interface: ask the kernel to tell it
        const int on = 1;
        const int rc = where.address().is_v6() ? ::setsockopt(socket_.native_handle(), IPPROTO_IPV6,
                                                              IPV6_RECVPKTINFO, &on, sizeof on)
                                               : ::setsockopt(socket_.native_handle(), IPPROTO_IP,
                                                              IP_PKTINFO, &on, sizeof on);
        if (rc != 0) {
            ec = std::error_code(errno, std::system_category());
            return fail("cannot enable packet info on");
        }
    }
    // No SO_REUSEADDR: two daemons sharing the port would each get only some requests.
    socket_.bind(where, ec);
    if (ec) return fail("cannot bind");
    socket_.non_blocking(true, ec);
    if (ec) return fail("cannot make non-blocking");
    return socket_.local_endpoint();
}

Result<asio::ip::udp::endpoint> DiscoveryResponder::open() {
    std::error_code ec;
    auto address = asio::ip::make_address(options_.listen, ec);
    if (ec)
        return Error::at(ErrorKind::Usage,
                         "invalid listen address '" + options_.listen + "': " + ec.message());
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    if (address.is_unspecified()) {
        auto bound = bind({address, options_.port}, true);
        if (!bound && address.is_v6()) {  // no IPv6 on this board: every IPv4 interface
            spdlog::debug("discovery: {}; using IPv4 only", bound.error().to_string());
            bound = bind({asio::ip::address_v4::any(), options_.port}, false);
        }
        return bound;
    }
    auto index = interface_of(address);
    if (!index) return std::move(index).take_error().while_("choosing the discovery interface");
    ifindex_ = *index;
    const asio::ip::address any = address.is_v6() ? asio::ip::address(asio::ip::address_v6::any())
                                                  : asio::ip::address(asio::ip::address_v4::any());
    return bind({any, options_.port}, false);
}

void DiscoveryResponder::start() {
    asio::co_spawn(
        socket_.get_executor(), [this] { return loop(); }, asio::detached);
}

void DiscoveryResponder::stop() {
    std::error_code ec;
    socket_.close(ec);
}

asio::awaitable<void> DiscoveryResponder::loop() {
    for (;;) {
        std::error_code ec;
        co_await socket_.async_wait(asio::ip::udp::socket::wait_read,
                                    asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return;  // closed by stop(): touch nothing of `this`
        // Bounded per wake-up, so a flood cannot starve the TCP side of the loop.
        for (int i = 0; i < 64 && receive_one(); ++i) {
        }
    }
}

bool DiscoveryResponder::receive_one() {
    std::array<std::uint8_t, 128> buf{};
    sockaddr_storage from{};
    alignas(cmsghdr)
        std::array<char, CMSG_SPACE(sizeof(in6_pktinfo)) + CMSG_SPACE(sizeof(in_pktinfo))>
            control{};
    iovec iov{buf.data(), buf.size()};
    msghdr msg{};
    msg.msg_name = &from;
    msg.msg_namelen = sizeof from;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    const ssize_t n = ::recvmsg(socket_.native_handle(), &msg, MSG_DONTWAIT);
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            spdlog::debug("discovery: receive failed: {}", std::strerror(errno));
        return errno == EINTR;
    }
    if (ifindex_ && arrival_interface(msg) != ifindex_) {
        ++ignored_;  // arrived on an interface we do not serve
        return true;
    }
    // A truncated datagram was longer than any request: size it as such.
    const std::size_t size =
        (msg.msg_flags & MSG_TRUNC) != 0 ? buf.size() + 1 : static_cast<std::size_t>(n);
    if (Status st = parse_discovery_request(std::span(buf.data(), std::min(size, buf.size())));
        !st || size > buf.size()) {
        ++ignored_;
        spdlog::debug("discovery: ignored a datagram: {}",
                      st ? std::string("longer than 128 bytes") : st.error().to_string());
        return true;
    }
    if (!budget_.take(ReplyBudget::Clock::now())) {
        if (!warned_refused_)
            spdlog::warn("discovery: too many requests; answering at most {} per second",
                         options_.answers_per_second);
        warned_refused_ = true;
        return true;
    }
    const DiscoveryAnswer answer = make_discovery_answer(host_name(), options_.tcp_port);
    // Best effort, like gatord: Streamline asks again if an answer is lost.
    if (::sendto(socket_.native_handle(), answer.data(), answer.size(), MSG_DONTWAIT,
                 wire::sockaddr_of(from), msg.msg_namelen) < 0) {
        spdlog::debug("discovery: answer not sent: {}", std::strerror(errno));
        return true;
    }
    ++answered_;
    spdlog::debug("discovery: answered a request ({} so far)", answered_);
    return true;
}

}  // namespace apcgate::daemon
