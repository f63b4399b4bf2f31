#include "collectors/annotate/parent_links.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace apcgate::collectors::annotate {

namespace {
constexpr int kBacklog = 64;
constexpr const char* kLoopbacks[] = {"127.0.0.1", "::1"};
}  // namespace

void ParentLinks::open_unix() {
    auto fd = listen_abstract(config_.parent_socket_name(), kBacklog);
    if (!fd) {
        log_.warn("annotations: " + fd.error().message +
                  " (another gatord or apcgate running?); applications using Arm's annotation "
                  "library will not be told when captures start");
        return;
    }
    unix_listener_ = std::move(fd).value();
    reactor_.watch(unix_listener_.get(), Role::ParentListener, EPOLLIN);
    std::string where = "@" + config_.parent_socket_name() + " (data: @" + config_.socket_name;
    if (config_.tcp_port != 0)
        where += ", and TCP " + std::to_string(config_.tcp_port) + "/" +
                 std::to_string(config_.data_tcp_port()) + " on 127.0.0.1 and ::1";
    log_.info("annotations: Arm's annotation library connects to " + where + " during captures)");
}

void ParentLinks::open_tcp() {
    if (config_.tcp_port == 0) return;
    for (const char* address : kLoopbacks) {
        auto fd = listen_tcp(address, config_.tcp_port, kBacklog);
        if (!fd) {
            log_.warn("annotations: " + fd.error().message);
            continue;
        }
        reactor_.watch(fd->get(), Role::ParentListener, EPOLLIN);
        tcp_listeners_.push_back(std::move(fd).value());
    }
}

void ParentLinks::on_listener(int listen_fd) {
    int err = 0;
    auto fd = accept_connection(listen_fd, err);
    if (!fd) {
        if (err != EAGAIN && err != EINTR && err != ECONNABORTED) {
            log_.warn(std::string("annotations: accept failed on a parent socket: ") +
                      std::strerror(err));
            reactor_.back_off(listen_fd, Role::ParentListener);
        }
        return;
    }
    if (clients_.size() >= config_.max_parent_clients) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::ParentRefused]; });
        log_.client_warn("annotations: refused a parent connection: " +
                         std::to_string(clients_.size()) + " already open");
        return;  // closed by Fd
    }
    const bool tcp = listen_fd != unix_listener_.get();
    const int key = fd->get();
    // Only a hang-up matters: the library never writes here (anything it sends is discarded).
    reactor_.watch(key, Role::ParentClient, EPOLLIN | EPOLLRDHUP);
    clients_.emplace(key, Client{std::move(fd).value(), tcp});
    stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::ParentClients]; });
}

void ParentLinks::on_client(int fd) {
    auto it = clients_.find(fd);
    if (it == clients_.end()) return;
    std::uint8_t sink[256];
    const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
    if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR))) return;
    close_client(fd);  // end of file or error: the application went away
}

void ParentLinks::close_client(int fd) {
    reactor_.forget(fd);
    clients_.erase(fd);
}

void ParentLinks::notify_all() {
    // Applications still in the listen backlog are waiting too: accept them before telling.
    if (unix_listener_.valid()) {
        const std::size_t cap = config_.max_parent_clients + 1;
        for (std::size_t n = clients_.size(); n < cap; ++n) {
            const std::size_t before = clients_.size();
            on_listener(unix_listener_.get());
            if (clients_.size() == before) break;
        }
    }
    std::vector<int> gone;
    std::uint64_t sent = 0;
    for (auto& [fd, client] : clients_) {
        const std::uint8_t start = 0;
        const ssize_t n = ::send(fd, &start, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n == 1) {
            ++sent;
        } else if (n < 0 && errno == EAGAIN) {
            // Its buffer is full of earlier notifications it never read: it never reads.
            log_.client_warn(
                "annotations: dropped a parent connection that never reads its "
                "capture-start notifications");
            stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::ParentRefused]; });
            gone.push_back(fd);
        } else {
            gone.push_back(fd);
        }
    }
    for (int fd : gone) close_client(fd);
    stats_.update([sent](AnnotateStats& s) { s.counts[AnnotateStat::ParentNotified] += sent; });
    if (!clients_.empty())
        log_.debug("annotations: told " + std::to_string(sent) +
                   " waiting "
                   "applications that a capture started");
}

void ParentLinks::end_capture() {
    std::vector<int> tcp;
    for (auto& [fd, client] : clients_)
        if (client.tcp) tcp.push_back(fd);
    for (int fd : tcp) {
        const std::uint8_t wake = 0;
        (void)::send(fd, &wake, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        close_client(fd);
    }
    for (auto& l : tcp_listeners_) reactor_.forget(l.get());
    tcp_listeners_.clear();
}

}  // namespace apcgate::collectors::annotate
