#include "daemon/record_loop.hpp"

#include <spdlog/spdlog.h>

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <csignal>

#include "daemon/exit_codes.hpp"
#include "daemon/interrupt_flag.hpp"
#include "daemon/perf_live_capture.hpp"

namespace apcgate::daemon {

int record_perf_framing(const RecordOptions& o, CollectorSet& collectors,
                        const model::CaptureSettings& settings,
                        const model::CaptureCounters& counters, ApcDirectory& sink,
                        const RecordCommandHooks& command) {
    asio::io_context io(1);
    asio::signal_set signals(io, SIGINT, SIGTERM, SIGCHLD);
    asio::steady_timer followed(io);  // --pid: notices when the processes are gone
    auto started = PerfLiveCapture::start(io.get_executor(), collectors, settings, counters, sink,
                                          [&](const std::string&) {
                                              std::error_code ec;
                                              signals.cancel(ec);
                                              followed.cancel();
                                          });
    if (!started) {
        spdlog::error("{}", started.error().to_string());
        return kExitFailure;
    }
    std::shared_ptr<PerfLiveCapture> capture = std::move(started).value();
    std::function<void(const std::error_code&, int)> on_signal = [&](const std::error_code& ec,
                                                                     int sig) {
        if (ec || !capture->running()) return;
        if (sig == SIGCHLD) {
            if (command.exited()) return capture->stop("command exited");
        } else {
            return capture->stop(stop_reason(sig));
        }
        signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);
    // --pid processes are not our children: no SIGCHLD says when they are gone.
    std::function<void(const std::error_code&)> watch = [&](const std::error_code& ec) {
        if (ec || !capture->running()) return;
        if (command.exited()) return capture->stop("followed processes exited");
        followed.expires_after(std::chrono::milliseconds(100));
        followed.async_wait(watch);
    };
    // Read once the capture has begun: from the signal set's construction on, asio has the
    // signals, and before it the set-up's flag did.
    if (const int sig = command.signal_during_set_up(); sig != 0) {
        capture->stop(stop_reason(sig));
    } else {
        if (!o.pids.empty()) watch({});
        if (!command.release()) capture->stop("command failed to start");
    }
    spdlog::info("recording into {} (Perf framing){}", o.output.string(),
                 settings.duration_s > 0 ? " for " + std::to_string(settings.duration_s) + " s"
                                         : " (Ctrl-C stops)");
    io.run();
    if (!sink.status()) {
        spdlog::error("{}", sink.status().error().to_string());
        return kExitFailure;
    }
    const auto& t = capture->totals();
    spdlog::info("wrote {}: {} frames, {} bytes", o.output.string(), t.frames, t.bytes);
    return kExitOk;
}

}  // namespace apcgate::daemon
