// Drives a CaptureEngine in real time on an Asio executor: one timer, armed for whichever comes
// first of the next source poll, the next live-rate flush and the duration limit; no busy loop.
// Recorded sources (`serve --source` trace files) keep no real time: they are read as fast as
// the client takes the frames, a slice at a time so the loop stays free for pings and stop,
// and not while more than kUnsentHigh bytes wait to be sent (resuming at kUnsentLow). A slow
// client slows the capture; it is neither dropped nor buffered for without bound.
// stop() (from a command, a signal, a vanished client or the end of the inputs) finishes the
// capture synchronously: last poll, last flush, end of sequence, then the `ended` callback.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "daemon/capture/capture_engine.hpp"

namespace apcgate::daemon {

class LiveCapture : public std::enable_shared_from_this<LiveCapture> {
  public:
    using Ended = std::function<void(const std::string& reason)>;

    LiveCapture(const asio::any_io_executor& executor, std::unique_ptr<CaptureEngine> engine,
                std::int64_t zero_monotonic_ns, Ended ended);

    // Starts the engine (sources and Summary) and the timer.
    Status start();
    // Idempotent. `reason` is logged and passed to the ended callback.
    void stop(const std::string& reason);

    [[nodiscard]] bool running() const { return started_ && !stopped_; }
    [[nodiscard]] CaptureEngine& engine() { return *engine_; }
    [[nodiscard]] const CaptureEngine& engine() const { return *engine_; }
    [[nodiscard]] model::Nanos now() const;

    static constexpr std::uint64_t kUnsentHigh = 8 << 20;
    static constexpr std::uint64_t kUnsentLow = 2 << 20;
    static constexpr std::chrono::milliseconds kSlice{5};

  private:
    void arm();
    void on_timer();
    void pump();  // reads recorded sources for one slice (see above)
    // pump() for later (posted, or when the client drained), unless the capture is gone by then.
    std::function<void()> pump_later();
    // Stops when the capture is complete (sources done, buffer full); true when it stopped.
    bool check_done();

    asio::steady_timer timer_;
    std::unique_ptr<CaptureEngine> engine_;
    std::int64_t zero_;
    Ended ended_;
    model::Nanos next_flush_ = 0;
    model::Nanos deadline_ = 0;  // duration limit, 0: none
    bool started_ = false;
    bool stopped_ = false;
};

}  // namespace apcgate::daemon
