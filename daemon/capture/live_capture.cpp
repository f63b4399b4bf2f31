#include "daemon/capture/live_capture.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <asio/post.hpp>
#include <chrono>

#include "daemon/capture/clocks.hpp"
#include "daemon/capture/statistics_output.hpp"

namespace apcgate::daemon {

LiveCapture::LiveCapture(const asio::any_io_executor& executor,
                         std::unique_ptr<CaptureEngine> engine, std::int64_t zero_monotonic_ns,
                         Ended ended)
    : timer_(executor),
      engine_(std::move(engine)),
      zero_(zero_monotonic_ns),
      ended_(std::move(ended)) {}

model::Nanos LiveCapture::now() const {
    return monotonic_ns() - zero_;
}

Status LiveCapture::start() {
    if (Status st = engine_->start(); !st) {
        stopped_ = true;
        return st;
    }
    started_ = true;
    const int duration = engine_->plan().settings.duration_s;
    deadline_ = duration > 0 ? static_cast<model::Nanos>(duration) * model::kNanosPerSecond : 0;
    next_flush_ = engine_->flush_period();
    engine_->poll_due(now());  // the first samples (and the process list) at the capture's zero
    arm();
    if (engine_->recorded_running()) asio::post(timer_.get_executor(), pump_later());
    return {};
}

std::function<void()> LiveCapture::pump_later() {
    return [weak = weak_from_this()] {
        if (auto self = weak.lock()) self->pump();
    };
}

void LiveCapture::pump() {
    if (stopped_) return;
    CaptureSink& sink = engine_->sink();
    const auto slice_end = std::chrono::steady_clock::now() + kSlice;
    while (engine_->recorded_running()) {
        if (sink.unsent_bytes() > kUnsentHigh) {
            sink.when_drained(kUnsentLow, pump_later());
            return;
        }
        engine_->poll_behind(now());
        engine_->encode_ready();
        if (check_done()) return;
        if (std::chrono::steady_clock::now() >= slice_end)
            return asio::post(timer_.get_executor(), pump_later());
    }
}

bool LiveCapture::check_done() {
    if (engine_->sources_finished()) {
        stop("all sources finished");
    } else if (engine_->buffer_full()) {
        stop("capture buffer full");
    }
    return stopped_;
}

void LiveCapture::arm() {
    model::Nanos next = std::min(next_flush_, engine_->next_poll());
    if (deadline_ > 0) next = std::min(next, deadline_);
    // The timeline runs on CLOCK_MONOTONIC_RAW and the timer on steady_clock (CLOCK_MONOTONIC):
    // wait for the remaining interval rather than an absolute time on the other clock.
    timer_.expires_after(std::chrono::nanoseconds(std::max<model::Nanos>(next - now(), 0)));
    timer_.async_wait([weak = weak_from_this()](const std::error_code& ec) {
        if (ec) return;  // cancelled by stop()
        if (auto self = weak.lock()) self->on_timer();
    });
}

void LiveCapture::on_timer() {
    if (stopped_) return;
    const model::Nanos t = now();
    engine_->poll_due(t);
    // Encode what every source has vouched for now rather than at the next flush: held in the
    // merger until then, a live rate's worth of events (100 ms of 100 k switches a second is
    // 10 k model events, about 1 MB, in vectors that keep twice that) would stay decoded.
    engine_->encode_ready();
    if (t >= next_flush_) {
        engine_->flush(t);
        // Skip missed ticks rather than bursting to catch up after a stall.
        while (next_flush_ <= t) next_flush_ += engine_->flush_period();
    }
    if (deadline_ > 0 && t >= deadline_) return stop("duration reached");
    if (check_done()) return;
    arm();
}

void LiveCapture::stop(const std::string& reason) {
    if (stopped_) return;
    stopped_ = true;
    timer_.cancel();
    if (started_) engine_->finish(now());
    const CaptureTotals t = engine_->totals();
    spdlog::info("capture ended ({}): {} events, {} frames, {} bytes", reason, t.events, t.frames,
                 t.bytes);
    for (const StatisticsOf& s : engine_->statistics()) log_statistics(s.who, s.values);
    if (ended_) {
        auto cb = std::move(ended_);
        cb(reason);
    }
}

}  // namespace apcgate::daemon
