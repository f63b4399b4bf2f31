// A small epoll wrapper for the annotation I/O thread: level-triggered, each fd registered with
// its role so one loop can dispatch listeners, clients and the wake-up eventfd.
#pragma once

#include <sys/epoll.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "collectors/annotate/sockets.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::annotate {

enum class Role : std::uint32_t {
    Wake,
    ParentListener,
    ParentClient,
    DataListener,
    DataLink,
    TextFifo,
    TextListener,
    TextClient,
};

class Reactor {
  public:
    Status open();
    // Registers, re-arms (events 0: paused, no wake-ups) and forgets an fd. Failures are logged
    // by the caller only through their effect (the fd is then simply not served).
    bool watch(int fd, Role role, std::uint32_t events);
    bool change(int fd, Role role, std::uint32_t events);
    void forget(int fd);
    // Waits up to `timeout_ms` (-1: forever); returns the number of events (0 on EINTR).
    int wait(std::span<epoll_event> out, int timeout_ms);

    // A listener whose accept failed for lack of resources (EMFILE...) would wake the loop
    // forever: it is paused until rearm_backed_off() (the loop's next tick, about a second).
    void back_off(int fd, Role role);
    void rearm_backed_off();

    static Role role_of(const epoll_event& e) { return static_cast<Role>(e.data.u64 >> 32); }
    static int fd_of(const epoll_event& e) { return static_cast<int>(e.data.u64 & 0xffffffffu); }

  private:
    Fd epoll_;
    std::vector<std::pair<int, Role>> backed_off_;
};

}  // namespace apcgate::collectors::annotate
