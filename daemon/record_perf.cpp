#include <spdlog/spdlog.h>

#include <asio/io_context.hpp>

#include "daemon/exit_codes.hpp"
#include "daemon/perf_live_capture.hpp"
#include "daemon/record_loop.hpp"
#include "daemon/record_watch.hpp"

namespace apcgate::daemon {

int record_perf_framing(const RecordOptions& o, CollectorSet& collectors,
                        const model::CaptureSettings& settings,
                        const model::CaptureCounters& counters, ApcDirectory& sink,
                        const RecordCommandHooks& command) {
    asio::io_context io(1);
    RecordWatch watch(io, o, command);
    auto started = PerfLiveCapture::start(io.get_executor(), collectors, settings, counters, sink,
                                          [&](const std::string&) { watch.cancel(); });
    if (!started) {
        spdlog::error("{}", started.error().to_string());
        return kExitFailure;
    }
    const std::shared_ptr<PerfLiveCapture> capture = std::move(started).value();
    watch.begin([&] { return capture->running(); },
                [&](const std::string& why) { capture->stop(why); });
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
