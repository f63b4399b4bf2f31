// Drives a PerfFramingCapture in real time on an Asio executor, as LiveCapture drives the v6.8
// engine: a timer polls it at the live rate (100 ms when that is 0) until stop() or the session's
// duration; stop() sends the last records and the end of sequence, then calls `ended`. One
// capture at a time in the process: the events it opens are the whole system's.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "daemon/capture/perf_framing_capture.hpp"

namespace apcgate::daemon {

class PerfLiveCapture : public std::enable_shared_from_this<PerfLiveCapture> {
  public:
    using Ended = std::function<void(const std::string& reason)>;

    static Result<std::shared_ptr<PerfLiveCapture>> start(const asio::any_io_executor& executor,
                                                          CollectorSet& collectors,
                                                          const model::CaptureSettings& settings,
                                                          const model::CaptureCounters& counters,
                                                          CaptureSink& sink, Ended ended);
    ~PerfLiveCapture();

    // Idempotent. `reason` is logged and passed to `ended`.
    void stop(const std::string& reason);
    [[nodiscard]] bool running() const { return !stopped_; }
    [[nodiscard]] const PerfFramingStatistics& totals() const { return capture_->totals(); }
    [[nodiscard]] std::vector<StatisticsOf> statistics() const { return capture_->statistics(); }

  private:
    PerfLiveCapture(const asio::any_io_executor& executor, Ended ended)
        : timer_(executor), ended_(std::move(ended)) {}
    void arm();

    asio::steady_timer timer_;
    Ended ended_;
    std::unique_ptr<PerfFramingCapture> capture_;
    std::chrono::milliseconds period_{100};
    std::chrono::steady_clock::time_point deadline_{};
    bool has_deadline_ = false;
    bool stopped_ = false;
};

}  // namespace apcgate::daemon
