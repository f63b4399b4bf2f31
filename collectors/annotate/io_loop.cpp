#include "collectors/annotate/io_loop.hpp"

#include <sys/eventfd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <system_error>

namespace apcgate::collectors::annotate {

namespace {
// How long the engine's thread waits for a command; the I/O thread never blocks, so this is
// reached only if it died, and the capture then goes on without annotations.
constexpr auto kCommandTimeout = std::chrono::seconds(5);
constexpr int kTickMs = 1000;  // re-arm backed-off listeners, check handshake deadlines
}  // namespace

IoLoop::IoLoop(AnnotateConfig config, Handover& handover, LogFn log)
    : config_(std::move(config)),
      handover_(handover),
      log_(std::move(log)),
      parents_(reactor_, stats_, log_, config_),
      data_(reactor_, handover_, stats_, log_, config_),
      text_(reactor_, handover_, stats_, log_, config_) {}

IoLoop::~IoLoop() {
    if (thread_.joinable()) {
        (void)call(Command::Quit);
        thread_.join();
    }
}

Status IoLoop::launch() {
    if (Status st = reactor_.open(); !st) return st;
    wake_fd_.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!wake_fd_.valid())
        return Error::at(ErrorKind::Io, std::string("eventfd: ") + std::strerror(errno));
    reactor_.watch(wake_fd_.get(), Role::Wake, EPOLLIN);
    parents_.open_unix();
    text_.open();
    try {
        thread_ = std::thread([this] { run(); });
    } catch (const std::system_error& e) {
        return Error::at(ErrorKind::Io,
                         std::string("cannot start the annotation thread: ") + e.what());
    }
    return {};
}

void IoLoop::wake() {
    if (!wake_fd_.valid()) return;
    const std::uint64_t one = 1;
    (void)!::write(wake_fd_.get(), &one, sizeof one);
}

Status IoLoop::call(Command c) {
    if (!thread_.joinable())
        return Error::at(ErrorKind::Internal, "the annotation thread is not running");
    std::unique_lock lock(mu_);
    command_ = c;
    const std::uint64_t ticket = ++posted_;
    lock.unlock();
    wake();
    lock.lock();
    if (!cv_.wait_for(lock, kCommandTimeout, [&] { return done_ >= ticket; }))
        return Error::at(ErrorKind::Internal, "the annotation thread did not answer");
    return {};
}

Status IoLoop::begin_capture(const CaptureBudget& budget) {
    log_.reset_client_warnings();
    {
        std::lock_guard lock(mu_);
        budget_ = budget;
    }
    return call(Command::Begin);
}

Status IoLoop::end_capture() {
    Status st = call(Command::End);
    if (const std::uint64_t n = log_.reset_client_warnings(); n > 0)
        log_.warn("annotations: " + std::to_string(n) + " more client warnings suppressed");
    return st;
}

void IoLoop::on_wake() {
    std::uint64_t count = 0;
    (void)!::read(wake_fd_.get(), &count, sizeof count);
    if (const std::uint64_t takes = handover_.takes(); takes != seen_takes_) {
        seen_takes_ = takes;
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::LoopWakes]; });
        data_.after_take();
        text_.after_take();
    }
    std::unique_lock lock(mu_);
    if (done_ == posted_) return;
    const Command c = command_;
    const CaptureBudget budget = budget_;
    lock.unlock();
    switch (c) {
        case Command::Begin:
            // Listen first, then tell the waiting applications to connect.
            data_.begin_capture(budget);
            parents_.open_tcp();
            text_.set_capturing(true, budget.total);
            parents_.notify_all();
            break;
        case Command::End:
            text_.drain();
            text_.set_capturing(false);
            data_.end_capture();
            parents_.end_capture();
            break;
        case Command::Quit:
            quit_ = true;
            break;
        case Command::None:
            break;
    }
    lock.lock();
    done_ = posted_;
    cv_.notify_all();
}

void IoLoop::dispatch(const epoll_event& e) {
    const int fd = Reactor::fd_of(e);
    switch (Reactor::role_of(e)) {
        case Role::Wake:
            on_wake();
            break;
        case Role::ParentListener:
            parents_.on_listener(fd);
            break;
        case Role::ParentClient:
            parents_.on_client(fd);
            break;
        case Role::DataListener:
            data_.on_listener(fd);
            break;
        case Role::DataLink:
            data_.on_readable(fd);
            break;
        case Role::TextFifo:
            text_.on_fifo();
            break;
        case Role::TextListener:
            text_.on_listener();
            break;
        case Role::TextClient:
            text_.on_client(fd);
            break;
    }
}

void IoLoop::run() {
    std::array<epoll_event, 64> events{};
    auto next_tick = monotonic_now_ns();
    while (!quit_) {
        const std::int64_t now = monotonic_now_ns();
        if (now >= next_tick) {
            reactor_.rearm_backed_off();
            const std::int64_t deadline = data_.on_tick(now);
            next_tick = now + std::int64_t{kTickMs} * 1'000'000;
            if (deadline >= 0 && deadline < next_tick) next_tick = deadline;
        }
        const auto wait_ms = static_cast<int>((next_tick - now + 999'999) / 1'000'000);
        const int n = reactor_.wait(events, std::max(wait_ms, 0));
        for (int i = 0; i < n; ++i) dispatch(events[static_cast<std::size_t>(i)]);
        wants_every_take_.store(data_.wants_take_notice(), std::memory_order_relaxed);
    }
}

}  // namespace apcgate::collectors::annotate
