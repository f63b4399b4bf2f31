// What the front ends that capture one collector set share (TCP connections, of this target's
// live collectors or of `serve --source`'s trace inputs; `record`): the collectors and their
// catalog, the persisted configuration, and the rule "one capture at a time". It answers the
// XML requests and turns settings + configuration into a running capture (placing the trace
// inputs anew for each, and logging their reports when it ends). (`convert` has no client and
// no configuration: it takes every counter of its trace inputs and drives a CaptureEngine over
// them itself.)
#pragma once

#include <asio/any_io_executor.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_source.hpp"
#include "collectors/source.hpp"
#include "daemon/capture/capture_engine.hpp"
#include "daemon/capture/live_capture.hpp"
#include "daemon/service/config_store.hpp"
#include "protocol/model/target_info.hpp"

namespace apcgate::collectors::perf {
class PerfSource;
}

namespace apcgate::daemon {

// The sources of a capture and what they declared: this target's live collectors
// (make_live_collectors) or trace inputs (open_trace_inputs). `serve` builds its set at start-up
// and again when SIGHUP changes its sources.
struct CollectorSet {
    std::vector<std::unique_ptr<collectors::Source>> sources;
    model::CounterCatalog catalog;
    model::TargetInfo target;
    std::vector<model::CoreName> cores;
    // Trace inputs (`convert`'s, `serve --source`'s; the same objects as `sources`): each
    // capture places them on its timeline by their clocks as they are then (else live: zero is
    // "now").
    std::vector<collectors::ingest::IngestSource*> inputs;
    // The live perf source (the same object as in `sources`), if the set has one: the Perf
    // framing drives it itself.
    collectors::perf::PerfSource* perf = nullptr;
    // The notes of the last placement of `inputs`, logged when they change.
    std::vector<std::string> placement_notes;

    // Calls declare()/describe() on every source; the catalog is fixed from then on.
    void declare_all();
};

class CaptureService {
  public:
    // Without a store (local captures) delivered configurations live in memory only.
    CaptureService(CollectorSet& collectors, std::optional<ConfigStore> store);

    [[nodiscard]] std::string events_xml() const;
    [[nodiscard]] std::string counters_xml() const;
    [[nodiscard]] std::string configuration_xml() const;
    [[nodiscard]] std::string defaults_xml() const;
    // Keys for a capture with the current configuration (the same keys its frames will use).
    [[nodiscard]] model::CaptureCounters prepare_counters() const;

    // Takes a delivered configuration: repeated counters dropped (the first one counts), then
    // kept in memory and in the state directory. An error (answer NAK with it) means it was not
    // taken: stored, it could not be loaded again. A failure to write the state directory is
    // logged and is not an error: the configuration applies until the daemon restarts.
    Status deliver_configuration(model::Configuration config);
    [[nodiscard]] const model::Configuration& configuration() const { return config_; }

    [[nodiscard]] bool capture_running() const;
    // Starts the one capture; fails if one is running or no source starts. `ended` runs when it
    // finishes for any reason, after the sink got its end of sequence and the trace inputs'
    // reports were logged.
    Result<std::shared_ptr<LiveCapture>> start_capture(const asio::any_io_executor& executor,
                                                       const model::CaptureSettings& settings,
                                                       model::CaptureCounters counters,
                                                       CaptureSink& sink, LiveCapture::Ended ended);
    // Stops the running capture, if any (signals, shutdown).
    void stop_capture(const std::string& reason);

    [[nodiscard]] const CollectorSet& collectors() const { return collectors_; }
    // For a capture that drives the sources itself (the Perf framing: perf_live_capture.hpp).
    [[nodiscard]] CollectorSet& live_collectors() { return collectors_; }

  private:
    CollectorSet& collectors_;
    std::optional<ConfigStore> store_;
    model::Configuration config_;
    std::weak_ptr<LiveCapture> running_;
};

}  // namespace apcgate::daemon
