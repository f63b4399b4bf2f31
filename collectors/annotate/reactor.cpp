#include "collectors/annotate/reactor.hpp"

#include <cerrno>
#include <cstring>

namespace apcgate::collectors::annotate {

namespace {
epoll_event event_for(int fd, Role role, std::uint32_t events) {
    epoll_event e{};
    e.events = events;
    e.data.u64 = static_cast<std::uint64_t>(role) << 32 | static_cast<std::uint32_t>(fd);
    return e;
}
}  // namespace

Status Reactor::open() {
    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    if (!epoll_.valid())
        return Error::at(ErrorKind::Io, std::string("epoll_create1: ") + std::strerror(errno));
    return {};
}

bool Reactor::watch(int fd, Role role, std::uint32_t events) {
    epoll_event e = event_for(fd, role, events);
    return ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &e) == 0;
}

bool Reactor::change(int fd, Role role, std::uint32_t events) {
    epoll_event e = event_for(fd, role, events);
    return ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, fd, &e) == 0;
}

void Reactor::forget(int fd) {
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
    std::erase_if(backed_off_, [fd](const auto& b) { return b.first == fd; });
}

void Reactor::back_off(int fd, Role role) {
    change(fd, role, 0);
    backed_off_.emplace_back(fd, role);
}

void Reactor::rearm_backed_off() {
    for (const auto& [fd, role] : backed_off_) change(fd, role, EPOLLIN);
    backed_off_.clear();
}

int Reactor::wait(std::span<epoll_event> out, int timeout_ms) {
    const int n = ::epoll_wait(epoll_.get(), out.data(), static_cast<int>(out.size()), timeout_ms);
    return n < 0 ? 0 : n;
}

}  // namespace apcgate::collectors::annotate
