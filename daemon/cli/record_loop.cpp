#include "daemon/cli/record_loop.hpp"

#include <spdlog/spdlog.h>

#include <asio/io_context.hpp>
#include <cstdint>
#include <utility>

#include "daemon/capture/live_capture.hpp"
#include "daemon/capture/perf_live_capture.hpp"
#include "daemon/capture/statistics_file.hpp"
#include "daemon/cli/record_watch.hpp"
#include "daemon/service/exit_codes.hpp"

namespace apcgate::daemon {

namespace {

// A begun capture as the loop sees it, whichever the framing.
struct BegunCapture {
    std::function<bool()> running;
    std::function<void(const std::string&)> stop;
    std::function<std::pair<std::uint64_t, std::uint64_t>()> frames_and_bytes;
    std::function<std::vector<StatisticsOf>()> statistics;
};

// Starts a capture whose end (any reason) calls `ended`.
using StartCapture =
    std::function<Result<BegunCapture>(asio::io_context& io, std::function<void()> ended)>;

template <typename Capture>
BegunCapture begun(std::shared_ptr<Capture> c,
                   std::pair<std::uint64_t, std::uint64_t> (*totals)(Capture&),
                   std::vector<StatisticsOf> (*statistics)(const Capture&)) {
    return {[c] { return c->running(); }, [c](const std::string& why) { c->stop(why); },
            [c, totals] { return totals(*c); }, [c, statistics] { return statistics(*c); }};
}

int run_loop(const RecordOptions& o, const model::CaptureSettings& settings, ApcDirectory& sink,
             const RecordCommandHooks& command, const char* framing_note,
             const StartCapture& start) {
    asio::io_context io(1);
    RecordWatch watch(io, o, command);
    auto started = start(io, [&] { watch.cancel(); });
    if (!started) {
        spdlog::error("{}", started.error().to_string());
        return kExitFailure;
    }
    const BegunCapture& capture = *started;
    watch.begin(capture.running, capture.stop);
    spdlog::info("recording into {}{}{}", o.output.string(), framing_note,
                 settings.duration_s > 0 ? " for " + std::to_string(settings.duration_s) + " s"
                                         : " (Ctrl-C stops)");
    io.run();
    if (!sink.status()) {
        spdlog::error("{}", sink.status().error().to_string());
        return kExitFailure;
    }
    const auto [frames, bytes] = capture.frames_and_bytes();
    spdlog::info("wrote {}: {} frames, {} bytes", o.output.string(), frames, bytes);
    // What the capture lost or changed stays with it, for `apcgate inspect` to tell later.
    if (Status st = sink.write_document(kStatisticsFile, statistics_document(capture.statistics()));
        !st) {
        spdlog::error("{}", st.error().to_string());
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace

int record_gator_framing(const RecordOptions& o, CaptureService& service,
                         const model::CaptureSettings& settings,
                         const model::CaptureCounters& counters, ApcDirectory& sink,
                         const RecordCommandHooks& command) {
    return run_loop(o, settings, sink, command, "",
                    [&](asio::io_context& io, std::function<void()> ended) -> Result<BegunCapture> {
                        auto started = service.start_capture(
                            io.get_executor(), settings, counters, sink,
                            [ended = std::move(ended)](const std::string&) { ended(); });
                        if (!started) return std::move(started).take_error();
                        return begun<LiveCapture>(
                            std::move(started).value(),
                            [](LiveCapture& c) {
                                const auto t = c.engine().totals();
                                return std::pair<std::uint64_t, std::uint64_t>{t.frames, t.bytes};
                            },
                            [](const LiveCapture& c) { return c.engine().statistics(); });
                    });
}

int record_perf_framing(const RecordOptions& o, CollectorSet& collectors,
                        const model::CaptureSettings& settings,
                        const model::CaptureCounters& counters, ApcDirectory& sink,
                        const RecordCommandHooks& command) {
    return run_loop(o, settings, sink, command, " (Perf framing)",
                    [&](asio::io_context& io, std::function<void()> ended) -> Result<BegunCapture> {
                        auto started = PerfLiveCapture::start(
                            io.get_executor(), collectors, settings, counters, sink,
                            [ended = std::move(ended)](const std::string&) { ended(); });
                        if (!started) return std::move(started).take_error();
                        return begun<PerfLiveCapture>(
                            std::move(started).value(),
                            [](PerfLiveCapture& c) {
                                const auto& t = c.totals();
                                return std::pair<std::uint64_t, std::uint64_t>{
                                    t[PerfFramingStat::Frames], t[PerfFramingStat::Bytes]};
                            },
                            [](const PerfLiveCapture& c) { return c.statistics(); });
                    });
}

}  // namespace apcgate::daemon
