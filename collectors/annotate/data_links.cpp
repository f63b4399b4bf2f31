#include "collectors/annotate/data_links.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace apcgate::collectors::annotate {

namespace {
constexpr int kBacklog = 128;
constexpr const char* kLoopbacks[] = {"127.0.0.1", "::1"};
constexpr std::uint32_t kReadable = EPOLLIN | EPOLLRDHUP;
constexpr std::size_t kMaxAppsLogged = 20;
}  // namespace

void DataLinks::begin_capture(const CaptureBudget& budget) {
    budget_ = budget;
    auto uds = listen_abstract(config_.socket_name, kBacklog);
    if (uds) {
        reactor_.watch(uds->get(), Role::DataListener, EPOLLIN);
        listeners_.push_back(std::move(uds).value());
    } else {
        log_.warn("annotations: " + uds.error().message +
                  " (another gatord or apcgate "
                  "capturing?); annotations over the Unix socket are not collected");
    }
    if (config_.data_tcp_port() != 0) {
        for (const char* address : kLoopbacks) {
            auto fd = listen_tcp(address, config_.data_tcp_port(), kBacklog);
            if (!fd) {
                log_.warn("annotations: " + fd.error().message);
                continue;
            }
            reactor_.watch(fd->get(), Role::DataListener, EPOLLIN);
            listeners_.push_back(std::move(fd).value());
        }
    }
    id_used_.clear();
    stats_.update([](AnnotateStats& s) { s.apps.clear(); });
}

void DataLinks::end_capture() {
    // Applications still in a listen backlog connected during the capture: take them too.
    for (auto& l : listeners_) {
        for (std::size_t n = links_.size(); n < config_.max_data_connections; ++n) {
            const std::size_t before = links_.size();
            on_listener(l.get());
            if (links_.size() == before) break;
        }
    }
    for (auto& l : listeners_) reactor_.forget(l.get());
    listeners_.clear();
    std::vector<int> fds;
    for (const auto& [fd, link] : links_) fds.push_back(fd);
    for (int fd : fds) {
        // Whatever the application sent before the end is still forwarded, but no more than one
        // share: a client that never stops must not hold up the end of the capture.
        Link& link = *links_.at(fd);
        std::size_t budget = budget_.share;
        bool open = true;
        while (open && budget > 0) {
            const std::size_t before = link.validator.offset();
            open = read_some(link, std::min(budget, buffer_.size()));
            if (!open) break;
            const std::size_t got = link.validator.offset() - before;
            if (got == 0) break;  // nothing more waiting
            budget -= std::min(budget, got);
        }
        if (open) close_link(fd, {});
    }
    log_capture_summary();
}

void DataLinks::on_listener(int listen_fd) {
    int err = 0;
    auto fd = accept_connection(listen_fd, err);
    if (!fd) {
        if (err != EAGAIN && err != EINTR && err != ECONNABORTED) {
            log_.warn(std::string("annotations: accept failed: ") + std::strerror(err));
            reactor_.back_off(listen_fd, Role::DataListener);
        }
        return;
    }
    if (links_.size() >= config_.max_data_connections) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::Refused]; });
        log_.client_warn("annotations: refused a data connection: " +
                         std::to_string(links_.size()) + " already open");
        return;
    }
    auto link = std::make_unique<Link>();
    link->endpoint = endpoint_label(fd->get());
    link->validator = StreamValidator(config_.stream);
    link->accepted_ns = monotonic_now_ns();
    link->fd = std::move(fd).value();
    const int key = link->fd.get();
    reactor_.watch(key, Role::DataLink, kReadable);
    links_.emplace(key, std::move(link));
    stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::Connections]; });
}

void DataLinks::pause(Link& link) {
    if (link.paused) return;
    reactor_.change(link.fd.get(), Role::DataLink, 0);
    link.paused = true;
    take_notice_ = true;
}

void DataLinks::on_readable(int fd) {
    auto it = links_.find(fd);
    if (it == links_.end() || it->second->paused) return;  // stale event
    Link& link = *it->second;
    if (handover_.pending_bytes() >= budget_.total) return pause(link);
    const std::size_t left = budget_.share - std::min(budget_.share, link.share_used);
    if (left == 0) {
        link.over_share = true;
        return pause(link);
    }
    read_some(link, std::min(left, buffer_.size()));
}

bool DataLinks::read_some(Link& link, std::size_t limit) {
    const int fd = link.fd.get();
    const ssize_t n = ::recv(fd, buffer_.data(), limit, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    if (n <= 0) {  // end of file, or reset: the application went away
        close_link(fd, {});
        return false;
    }
    link.share_used += static_cast<std::size_t>(n);
    out_.clear();
    const bool ok =
        link.validator.feed(std::span(buffer_).first(static_cast<std::size_t>(n)), out_);
    forward(link, out_);
    if (!ok) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::DroppedProtocol]; });
        close_link(fd, "dropped: " + link.validator.error()->to_string());
        return false;
    }
    return true;
}

void DataLinks::forward(Link& link, std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return;
    if (!link.id) link.id = allocate_id();
    handover_.push_data(*link.id, bytes);
}

std::int32_t DataLinks::allocate_id() {
    const auto free = std::find(id_used_.begin(), id_used_.end(), false);
    const auto id = static_cast<std::int32_t>(free - id_used_.begin());
    if (free == id_used_.end()) {
        id_used_.push_back(true);
    } else {
        *free = true;
    }
    return id;
}

std::string DataLinks::describe(const Link& link) const {
    std::string s = "annotation connection";
    if (link.id) s += " " + std::to_string(*link.id);
    s += " on " + link.endpoint;
    if (const auto& h = link.validator.handshake())
        s += " (pid " + std::to_string(h->pid) + ", tid " + std::to_string(h->tid) + ")";
    return s;
}

void DataLinks::close_link(int fd, const std::string& reason) {
    auto it = links_.find(fd);
    if (it == links_.end()) return;
    Link& link = *it->second;
    out_.clear();
    link.validator.finish(out_);
    forward(link, out_);
    const StreamCounts& counts = link.validator.counts();
    if (!reason.empty()) log_.client_warn(describe(link) + ": " + reason);
    if (counts.truncated) log_.debug(describe(link) + " ended inside a " + *counts.truncated);
    log_.debug(describe(link) + " closed: " + counts.describe() + ", " +
               std::to_string(counts.forwarded_bytes) + " bytes forwarded");
    if (link.id) {
        // The disconnect is queued before the id can be handed to another connection.
        handover_.push_disconnect(*link.id);
        id_used_[static_cast<std::size_t>(*link.id)] = false;
    }
    const auto& handshake = link.validator.handshake();
    stats_.update([&](AnnotateStats& s) {
        s.counts[AnnotateStat::ForwardedBytes] += counts.forwarded_bytes;
        if (counts.truncated) ++s.counts[AnnotateStat::Truncated];
        for (std::size_t c = 0; c < kCodeSlots; ++c) s.messages[c] += counts.messages[c];
        if (!handshake) return;
        AppCounts& app = s.apps[handshake->pid];
        ++app.connections;
        app.bytes += counts.forwarded_bytes;
        for (std::size_t c = 0; c < kCodeSlots; ++c) app.messages[c] += counts.messages[c];
    });
    reactor_.forget(fd);
    links_.erase(it);
}

void DataLinks::after_take() {
    std::vector<int> flooders;
    take_notice_ = false;
    for (auto& [fd, link] : links_) {
        link->saturated_takes = link->over_share ? link->saturated_takes + 1 : 0;
        link->over_share = false;
        link->share_used = 0;
        if (link->saturated_takes >= budget_.flood_takes) {
            flooders.push_back(fd);
            continue;
        }
        take_notice_ = take_notice_ || link->saturated_takes > 0;
        if (link->paused) {
            reactor_.change(fd, Role::DataLink, kReadable);
            link->paused = false;
        }
    }
    for (int fd : flooders) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::DroppedFlood]; });
        close_link(fd, "dropped: it sent more than " + std::to_string(budget_.share) +
                           " bytes between the engine's polls " +
                           std::to_string(budget_.flood_takes) +
                           " times in a row (it never stops)");
    }
}

std::int64_t DataLinks::on_tick(std::int64_t now_ns) {
    std::vector<int> late;
    std::int64_t next = -1;
    for (const auto& [fd, link] : links_) {
        if (link->validator.handshake_done()) continue;
        const std::int64_t deadline = link->accepted_ns + config_.handshake_timeout_ns;
        if (deadline <= now_ns) {
            late.push_back(fd);
        } else if (next < 0 || deadline < next) {
            next = deadline;
        }
    }
    for (int fd : late) {
        // The loop may not have run for a while (a loaded machine): a handshake already waiting
        // in the socket was sent in time, so read what is there before judging.
        on_readable(fd);
        const auto it = links_.find(fd);
        if (it == links_.end() || it->second->validator.handshake_done()) continue;
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::DroppedNoHandshake]; });
        close_link(fd, "dropped: no handshake within " +
                           std::to_string(config_.handshake_timeout_ns / 1'000'000) + " ms");
    }
    return next;
}

void DataLinks::log_capture_summary() {
    const AnnotateStats s = stats_.snapshot();
    std::size_t logged = 0;
    for (const auto& [pid, app] : s.apps) {
        if (++logged > kMaxAppsLogged) {
            log_.info("annotations: " + std::to_string(s.apps.size() - kMaxAppsLogged) +
                      " more applications");
            break;
        }
        StreamCounts c;
        c.messages = app.messages;
        log_.info("annotations from pid " + std::to_string(pid) + ": " +
                  std::to_string(app.connections) + " connections, " +
                  std::to_string(c.total_messages()) + " messages (" + c.describe() + "), " +
                  std::to_string(app.bytes) + " bytes");
    }
}

}  // namespace apcgate::collectors::annotate
