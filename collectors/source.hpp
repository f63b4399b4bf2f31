// The interface between every collector/ingester and the capture engine. A source declares its
// counters once (probe), is started for each capture with the capture's context, and is polled:
// each poll appends events in non-decreasing timestamp order and returns a watermark, a promise
// that no later poll yields an event before it. The engine merges all sources by timestamp up to
// the lowest watermark, so several sources share one timeline. Sources never see APC bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/event.hpp"
#include "protocol/model/statistic.hpp"
#include "protocol/model/target_info.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors {

inline constexpr model::Nanos kNever = std::numeric_limits<model::Nanos>::max();

// How a live collector reports: the daemon injects the sink (spdlog there; tests collect the
// lines), so collector libraries need no logging dependency.
enum class LogLevel { Debug, Info, Warn };
using LogFn = std::function<void(LogLevel, const std::string&)>;

struct CaptureContext {
    const model::CaptureSettings& settings;
    const model::CaptureCounters& counters;
    // The timeline clock's reading (CLOCK_MONOTONIC_RAW ns, model/timeline_clock.hpp) at the
    // capture's zero: a live source subtracts it from its clock.
    std::int64_t zero_monotonic_ns = 0;
};

struct PollResult {
    model::Nanos watermark = 0;  // all later events have ts >= watermark
    bool finished = false;       // the source has nothing more to give
};

class Source {
  public:
    virtual ~Source() = default;
    Source() = default;
    Source(const Source&) = delete;
    Source& operator=(const Source&) = delete;

    [[nodiscard]] virtual std::string_view name() const = 0;
    // Adds this source's counters to the catalog (once, before captures).
    virtual void declare(model::CounterCatalog& catalog) { (void)catalog; }
    // Lets the source fill or amend what captured.xml says about the target.
    virtual void describe(model::TargetInfo& target) { (void)target; }
    // Begins a capture; an error here aborts the capture before any frame is sent.
    virtual Status start(const CaptureContext& ctx) = 0;
    // How often the engine should poll, in ns (0: at every flush, i.e. the live rate).
    [[nodiscard]] virtual model::Nanos poll_period() const { return 0; }
    // True for a source of recorded data (a trace file): it keeps no real time, so the driver
    // polls it as fast as the capture's frames are taken (written, or sent to the client),
    // never at a period, and only while the merge waits for it (CaptureEngine::poll_behind()).
    [[nodiscard]] virtual bool recorded() const { return false; }
    // Appends events (ts >= previous watermark, non-decreasing) for the time up to `now`.
    virtual PollResult poll(model::Nanos now, std::vector<model::Event>& out) = 0;
    // Ends the capture: appends any final events; the source is finished afterwards.
    virtual void stop(model::Nanos now, std::vector<model::Event>& out) {
        (void)now;
        (void)out;
    }
    // What the source counted in the running or last capture: every statistic of its table,
    // zero or not (the daemon logs them when the capture ends). Trace inputs count per record
    // kind in their IngestReport instead.
    [[nodiscard]] virtual std::vector<model::StatisticValue> statistics() const { return {}; }
};

}  // namespace apcgate::collectors
