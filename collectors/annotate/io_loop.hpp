// The annotation I/O thread: one epoll loop over every annotation endpoint (parent and data
// listeners, their connections, the text FIFO and socket), so a slow, silent or hostile client
// never blocks the capture engine's thread. The engine's thread talks to it only through the
// Handover (events) and three commands (begin capture, end capture, quit) that it waits for;
// every fd is owned and touched by the I/O thread alone.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "collectors/annotate/annotate_config.hpp"
#include "collectors/annotate/annotate_log.hpp"
#include "collectors/annotate/annotate_stats.hpp"
#include "collectors/annotate/data_links.hpp"
#include "collectors/annotate/handover.hpp"
#include "collectors/annotate/parent_links.hpp"
#include "collectors/annotate/reactor.hpp"
#include "collectors/annotate/text_inputs.hpp"

namespace apcgate::collectors::annotate {

class IoLoop {
  public:
    IoLoop(AnnotateConfig config, Handover& handover, LogFn log);
    ~IoLoop();  // quits and joins the thread
    IoLoop(const IoLoop&) = delete;
    IoLoop& operator=(const IoLoop&) = delete;

    // Opens the endpoints that live as long as the daemon and starts the thread.
    Status launch();
    // Opens the capture's listeners and tells waiting applications; returns once done.
    Status begin_capture(const CaptureBudget& budget);
    // Closes the capture's listeners and connections (their last bytes and disconnects go to
    // the hand-over); returns once done.
    Status end_capture();
    // The engine took the hand-over: paused connections may read again.
    void wake();
    // Whether the engine must wake the loop after a take that found nothing (DataLinks::
    // wants_take_notice says when). Otherwise a take that moved nothing changes nothing here,
    // and waking the thread for it (every poll, 100 times a second) would only cost the CPU
    // the capture is measuring.
    [[nodiscard]] bool wants_every_take() const {
        return wants_every_take_.load(std::memory_order_relaxed);
    }

    [[nodiscard]] AnnotateStats stats() const { return stats_.snapshot(); }

  private:
    enum class Command { None, Begin, End, Quit };

    Status call(Command c);
    void run();
    void on_wake();
    void dispatch(const epoll_event& e);

    AnnotateConfig config_;
    Handover& handover_;
    Log log_;
    StatsBox stats_;
    Reactor reactor_;
    Fd wake_fd_;
    ParentLinks parents_;
    DataLinks data_;
    TextInputs text_;
    std::thread thread_;

    std::mutex mu_;
    std::condition_variable cv_;
    Command command_ = Command::None;
    CaptureBudget budget_;  // for Begin
    std::uint64_t posted_ = 0, done_ = 0;
    std::uint64_t seen_takes_ = 0;  // I/O thread only
    std::atomic<bool> wants_every_take_{false};
    bool quit_ = false;  // I/O thread only
};

}  // namespace apcgate::collectors::annotate
