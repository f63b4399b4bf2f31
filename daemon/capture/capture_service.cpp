#include "daemon/capture/capture_service.hpp"

#include <spdlog/spdlog.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "daemon/capture/clocks.hpp"
#include "daemon/capture/convert_report.hpp"
#include "daemon/capture/ingest_registry.hpp"
#include "daemon/service/log_text.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

void CollectorSet::declare_all() {
    bool recorded = false;
    for (auto& s : sources) {
        s->declare(catalog);
        s->describe(target);
        recorded = recorded || s->recorded();
    }
    // Trace inputs may hold no counter and no activity at all; the capture's own event rate
    // keeps every capture of them valid (event_rate_counter.hpp). Live sets have /proc's.
    if (recorded) EventRateCounter::declare(catalog);
}

CaptureService::CaptureService(CollectorSet& collectors, std::optional<ConfigStore> store)
    : collectors_(collectors), store_(std::move(store)), config_(collectors.catalog.defaults()) {
    if (!store_) return;
    auto loaded = store_->load();
    if (!loaded) {
        spdlog::warn("ignoring stored configuration: {}", loggable(loaded.error().to_string()));
    } else if (loaded->has_value()) {
        config_ = std::move(**loaded);
        spdlog::info("configuration loaded from {}", store_->file().string());
    }
}

std::string CaptureService::events_xml() const {
    return xml::write_events(collectors_.catalog);
}
std::string CaptureService::counters_xml() const {
    return xml::write_counters(collectors_.catalog);
}
std::string CaptureService::configuration_xml() const {
    return xml::write_configuration(config_);
}
std::string CaptureService::defaults_xml() const {
    return xml::write_configuration(collectors_.catalog.defaults());
}

model::CaptureCounters CaptureService::prepare_counters() const {
    // The capture's own event rate is on whatever the configuration says (one delivered before
    // it existed, or one without it): trace inputs may hold nothing else that makes a capture
    // valid (event_rate_counter.hpp).
    const char* own = EventRateCounter::kCounter;
    if (collectors_.catalog.find(own) != nullptr &&
        std::none_of(config_.counters.begin(), config_.counters.end(),
                     [own](const model::ConfiguredCounter& c) { return c.counter == own; })) {
        model::Configuration config = config_;
        config.counters.push_back({own, {}, {}, {}});
        return model::CaptureCounters::assign(collectors_.catalog, config);
    }
    return model::CaptureCounters::assign(collectors_.catalog, config_);
}

Status CaptureService::deliver_configuration(model::Configuration config) {
    if (const std::size_t repeats = model::drop_repeated_counters(config); repeats > 0)
        spdlog::info("configuration: {} repeated counter entries dropped", repeats);
    if (store_) {
        if (auto encoded = ConfigStore::encode(config); !encoded) {
            spdlog::warn("configuration refused: {}", loggable(encoded.error().to_string()));
            return std::move(encoded).take_error();
        }
    }
    config_ = std::move(config);
    const auto ignored = model::CaptureCounters::assign(collectors_.catalog, config_).ignored();
    if (!ignored.empty()) {
        spdlog::info("{} of {} configured counters are not available here: {}", ignored.size(),
                     config_.counters.size(), loggable_examples(ignored));
    }
    if (!store_) return {};
    if (Status st = store_->save(config_); !st)
        spdlog::warn("configuration not persisted: {}", loggable(st.error().to_string()));
    return {};
}

bool CaptureService::capture_running() const {
    auto c = running_.lock();
    return c && c->running();
}

namespace {
apc::SummaryInfo summary_now(std::int64_t zero_monotonic) {
    apc::SummaryInfo s;
    s.monotonic_delta_ns = zero_monotonic;
    s.wallclock_ns = clock_ns(CLOCK_REALTIME);
    s.uptime_ns = clock_ns(CLOCK_BOOTTIME);
    utsname u{};
    if (::uname(&u) == 0) {
        s.attributes.emplace_back("uname", std::string(u.sysname) + " " + u.nodename + " " +
                                               u.release + " " + u.version + " " + u.machine);
    }
    s.attributes.emplace_back("PAGESIZE", std::to_string(::sysconf(_SC_PAGESIZE)));
    s.attributes.emplace_back("agent", "apcgate " APCGATE_VERSION);
    return s;
}
}  // namespace

Result<std::shared_ptr<LiveCapture>> CaptureService::start_capture(
    const asio::any_io_executor& executor, const model::CaptureSettings& settings,
    model::CaptureCounters counters, CaptureSink& sink, LiveCapture::Ended ended) {
    if (capture_running()) return Error::at(ErrorKind::Refused, "capture in progress");
    CapturePlan plan;
    plan.settings = settings;
    plan.counters = std::move(counters);
    for (auto& s : collectors_.sources) plan.sources.push_back(s.get());
    plan.cores = collectors_.cores;
    const std::int64_t zero = monotonic_ns();  // the live driver's clock
    plan.zero_monotonic_ns = zero;
    if (!collectors_.inputs.empty()) {
        // Each capture reads the inputs as they are now (a debugger or a new run of the program
        // may have rewritten them since the last one), so their places are found anew: else a
        // rewritten log's capture would start minutes after its zero, or before it. A failed
        // refresh is the input's start() failure too, and is reported as such.
        for (auto* in : collectors_.inputs) (void)in->refresh();
        const auto placed = place_inputs(collectors_.inputs);
        if (placed.notes != collectors_.placement_notes) {
            for (const auto& note : placed.notes) spdlog::warn("{}", note);
            collectors_.placement_notes = placed.notes;
        }
        plan.zero_monotonic_ns = placed.zero;
        plan.source_zero_ns = placed.input_zero;
    }
    plan.summary = summary_now(plan.zero_monotonic_ns);
    auto engine = std::make_unique<CaptureEngine>(std::move(plan), sink);
    if (!collectors_.inputs.empty()) {
        // What each trace input held and lost, after the capture's own end line.
        ended = [inputs = collectors_.inputs, then = std::move(ended)](const std::string& reason) {
            for (const auto* input : inputs) log_report(input->report());
            if (then) then(reason);
        };
    }
    auto capture =
        std::make_shared<LiveCapture>(executor, std::move(engine), zero, std::move(ended));
    if (Status st = capture->start(); !st) return std::move(st).take_error();
    running_ = capture;
    spdlog::info("capture started (sample rate {} Hz, live rate {} ms, duration {} s)",
                 model::sample_rate_hz(settings.sample_rate), settings.live_rate_ms,
                 settings.duration_s);
    return capture;
}

void CaptureService::stop_capture(const std::string& reason) {
    if (auto c = running_.lock()) c->stop(reason);
}

}  // namespace apcgate::daemon
