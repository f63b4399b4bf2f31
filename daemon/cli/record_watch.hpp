// What ends a local capture besides its duration, the same in both framings: SIGINT or SIGTERM,
// the command's exit (SIGCHLD), every --pid process gone (polled: they are not our children),
// and a signal that arrived while the capture was being set up. It also lets a gated command
// run once the capture has begun.
#pragma once

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <functional>
#include <string>

#include "daemon/cli/cli.hpp"
#include "daemon/cli/record_loop.hpp"

namespace apcgate::daemon {

class RecordWatch {
  public:
    // Takes SIGINT, SIGTERM and SIGCHLD from here on (asio queues them until begin()).
    RecordWatch(asio::io_context& io, const RecordOptions& o, const RecordCommandHooks& command);
    RecordWatch(const RecordWatch&) = delete;
    RecordWatch& operator=(const RecordWatch&) = delete;

    // Watches a capture that has begun, through its running() and stop(reason).
    void begin(std::function<bool()> running, std::function<void(const std::string&)> stop);
    // The capture has ended: nothing more to wait for (the io_context's run() can return).
    void cancel();

  private:
    void on_signal(const std::error_code& ec, int sig);
    void poll_followed(const std::error_code& ec);

    const RecordOptions& options_;
    const RecordCommandHooks& command_;
    asio::signal_set signals_;
    asio::steady_timer followed_;
    std::function<bool()> running_;
    std::function<void(const std::string&)> stop_;
};

}  // namespace apcgate::daemon
