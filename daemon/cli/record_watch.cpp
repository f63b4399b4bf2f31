#include "daemon/cli/record_watch.hpp"

#include <chrono>
#include <csignal>

#include "daemon/cli/interrupt_flag.hpp"

namespace apcgate::daemon {

RecordWatch::RecordWatch(asio::io_context& io, const RecordOptions& o,
                         const RecordCommandHooks& command)
    : options_(o), command_(command), signals_(io, SIGINT, SIGTERM, SIGCHLD), followed_(io) {}

void RecordWatch::begin(std::function<bool()> running,
                        std::function<void(const std::string&)> stop) {
    running_ = std::move(running);
    stop_ = std::move(stop);
    signals_.async_wait([this](const std::error_code& ec, int sig) { on_signal(ec, sig); });
    // Read once the capture has begun: from the signal set's construction on, asio has the
    // signals, and before it the set-up's flag did.
    if (const int sig = command_.signal_during_set_up(); sig != 0)
        return stop_(stop_reason(sig));  // a gated command is never let run
    // The events are open: let the command run; its exit comes as SIGCHLD.
    if (!command_.release()) return stop_("command failed to start");
    if (options_.command.empty() && !options_.pids.empty()) poll_followed({});
}

void RecordWatch::cancel() {
    std::error_code ec;
    signals_.cancel(ec);
    followed_.cancel();
}

void RecordWatch::on_signal(const std::error_code& ec, int sig) {
    if (ec || !running_()) return;
    if (sig != SIGCHLD) return stop_(stop_reason(sig));
    if (command_.exited()) return stop_("command exited");
    signals_.async_wait([this](const std::error_code& e, int s) { on_signal(e, s); });
}

void RecordWatch::poll_followed(const std::error_code& ec) {
    if (ec || !running_()) return;
    if (command_.exited()) return stop_("followed processes exited");
    followed_.expires_after(std::chrono::milliseconds(100));
    followed_.async_wait([this](const std::error_code& e) { poll_followed(e); });
}

}  // namespace apcgate::daemon
