#include "daemon/capture/perf_live_capture.hpp"

#include <spdlog/spdlog.h>

#include "daemon/capture/statistics_output.hpp"

namespace apcgate::daemon {

namespace {
bool g_active = false;  // one perf capture per process (the timer thread is the only user)
}  // namespace

Result<std::shared_ptr<PerfLiveCapture>> PerfLiveCapture::start(
    const asio::any_io_executor& executor, CollectorSet& collectors,
    const model::CaptureSettings& settings, const model::CaptureCounters& counters,
    CaptureSink& sink, Ended ended) {
    if (g_active) return Error::at(ErrorKind::Refused, "a capture is already running");
    auto started = PerfFramingCapture::start(collectors, settings, counters, sink);
    if (!started) return std::move(started).take_error();
    std::shared_ptr<PerfLiveCapture> c(new PerfLiveCapture(executor, std::move(ended)));
    c->capture_ = std::move(started).value();
    g_active = true;
    c->period_ = std::chrono::milliseconds(settings.live_rate_ms > 0 ? settings.live_rate_ms : 100);
    if (settings.duration_s > 0) {
        c->has_deadline_ = true;
        c->deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(settings.duration_s);
    }
    c->arm();
    return c;
}

PerfLiveCapture::~PerfLiveCapture() {
    if (!stopped_) {
        capture_->stop();
        g_active = false;
    }
}

void PerfLiveCapture::arm() {
    timer_.expires_after(period_);
    timer_.async_wait([weak = weak_from_this()](const std::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->stopped_) return;
        self->capture_->poll();
        if (self->has_deadline_ && std::chrono::steady_clock::now() >= self->deadline_)
            return self->stop("duration reached");
        self->arm();
    });
}

void PerfLiveCapture::stop(const std::string& reason) {
    if (stopped_) return;
    stopped_ = true;
    timer_.cancel();
    capture_->stop();
    g_active = false;
    const auto& t = capture_->totals();
    spdlog::info("capture stopped: {}; {} perf records ({} bytes) forwarded in {} frames, {} lost",
                 reason, t[PerfFramingStat::Records], t[PerfFramingStat::RecordBytes],
                 t[PerfFramingStat::Frames], t[PerfFramingStat::LostEvents]);
    for (const StatisticsOf& s : capture_->statistics()) log_statistics(s.who, s.values);
    if (ended_) ended_(reason);
}

}  // namespace apcgate::daemon
