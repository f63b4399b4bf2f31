#include "collectors/perf/perf_source.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <map>

#include "collectors/perf/capture_plan.hpp"
#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/proc_reader.hpp"

namespace apcgate::collectors::perf {

// Everything one capture owns. Members are destroyed in reverse order: the reader thread stops
// before the session's fds and rings go away.
struct PerfSource::Capture {
    Capture(const PerfOptions& o, PlannedCapture p)
        : proc(o.proc_root),
          report("perf", "perf ring buffers"),
          plan(std::move(p)),
          normalizer(plan.normalizer, report),
          mapper(&proc, plan.activity_key) {}

    ProcReader proc;
    ingest::IngestReport report;
    PlannedCapture plan;
    LayoutTable layouts;
    RecordNormalizer normalizer;
    EventMapper mapper;
    std::unique_ptr<PerfSession> session;
    std::unique_ptr<PerfReader> reader;
};

namespace {

// One log line saying what a capture opened.
std::string summary_line(const SessionPlan& s, std::size_t fds, std::size_t followed) {
    std::string text =
        "perf: " + std::to_string(fds) + " events on " + std::to_string(s.cpus.size()) + " CPUs, ";
    text += followed == 0 ? "system-wide" : "following " + std::to_string(followed) + " task(s)";
    text += "; switches from ";
    if (s.context_switch && s.sched_switch_id)
        text += s.sched_switch_filter.empty()
                    ? "switch records and sched:sched_switch"
                    : "switch records (sched:sched_switch for uninterruptible sleeps)";
    else
        text += s.sched_switch_id  ? "sched:sched_switch"
                : s.context_switch ? "switch records"
                                   : "nothing";
    text += "; sampling ";
    text += s.sample_hz > 0 ? std::to_string(s.sample_hz) + " Hz" : "off";
    if (s.sample_hz > 0 && s.callchain) text += " with call stacks";
    text += "; " + std::to_string(s.counters.size()) + " counters, " +
            std::to_string(s.samplers.size()) + " event-based samplers";
    return text;
}

}  // namespace

PerfSource::PerfSource(PerfOptions options) : options_(std::move(options)) {
    if (!options_.opener) options_.opener = kernel_opener();
}

PerfSource::~PerfSource() {
    close_capture();
}

void PerfSource::declare(model::CounterCatalog& catalog) {
    if (!probed_) {
        ProbeOptions po;
        po.follow = !options_.follow_pids.empty();
        po.proc_root = options_.proc_root;
        po.sys_root = options_.sys_root;
        po.tracefs_root = options_.tracefs_root;
        po.opener = options_.opener;
        po.pmus = options_.pmus;
        if (options_.capture_follows_probe) po.hold_tracepoints = &probe_held_;
        caps_ = probe_capabilities(po);
        probed_ = true;
        for (const auto& note : caps_.notes) log(LogLevel::Info, "perf: " + note);
        if (!caps_.tracefs.empty()) log(LogLevel::Debug, "perf: tracepoints from " + caps_.tracefs);
    }
    if (!caps_.usable) return;
    if (caps_.activity()) catalog.add(activity_spec(static_cast<int>(caps_.cpus.size())));
    for (const SoftwareCounter* sw : caps_.software) catalog.add(software_spec(*sw));
    for (const HwCluster& c : caps_.clusters) {
        catalog.add_set(counter_set_spec(c));
        catalog.add(cycle_counter_spec(c));
    }
    catalog.add(lost_spec());
    // Repairs need the switch records; the capture shows them where they happened. A capture
    // that forwards the records repairs nothing.
    if (caps_.activity() && caps_.switch_records && !options_.forwards_records)
        catalog.add(repaired_switches_spec());
}

Status PerfSource::start(const CaptureContext& ctx) {
    close_capture();
    last_statistics_ = {};
    if (!caps_.usable)
        return Error::at(ErrorKind::Unsupported,
                         "perf events do not open here" +
                             (caps_.notes.empty() ? std::string() : ": " + caps_.notes.front()));
    const ProcReader proc(options_.proc_root);
    std::vector<pid_t> targets;
    for (const std::int32_t pid : options_.follow_pids) {
        std::vector<std::int32_t> tids =
            options_.from_exec ? std::vector<std::int32_t>{} : proc.tids(pid);
        if (tids.empty()) tids.push_back(pid);
        targets.insert(targets.end(), tids.begin(), tids.end());
    }
    if (targets.empty()) targets.push_back(-1);
    auto c =
        std::make_unique<Capture>(options_, plan_capture(caps_, ctx, targets, options_.from_exec));
    if (options_.ring_bytes != 0) c->plan.session.ring_bytes = options_.ring_bytes;
    c->plan.session.tracepoint_release = options_.tracepoint_release;
    for (const auto& name : c->plan.ignored)
        log(LogLevel::Warn, "perf: counter " + name + " cannot be programmed here: ignored");

    // Many threads times many CPUs can need more descriptors than the default soft limit.
    rlimit lim{};
    if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &lim);
    }
    std::vector<std::string> warnings;
    auto session =
        PerfSession::open(c->plan.session, options_.opener, c->layouts, c->normalizer, warnings);
    for (std::size_t i = 0; i < warnings.size() && i < 8; ++i)
        log(LogLevel::Warn, "perf: " + warnings[i]);
    if (warnings.size() > 8)
        log(LogLevel::Warn, "perf: ... and " + std::to_string(warnings.size() - 8) + " more");
    release_probe_events();  // the session's own tracepoint events are open now, or never will be
    if (!session) return std::move(session).take_error().while_("opening perf events");
    c->session = std::move(session).value();

    if (!options_.from_exec) {
        if (Status st = c->session->enable(); !st) return std::move(st).take_error();
    }
    ReaderConfig rc;
    rc.zero_monotonic_ns = ctx.zero_monotonic_ns;
    rc.counter_period = c->plan.counter_period;
    rc.lost_key = c->plan.lost_key;
    rc.repaired_switches_key = c->plan.repaired_switches_key;
    if (options_.queued_events != 0) rc.queue_cap = options_.queued_events;
    if (options_.drain_chunk_bytes != 0) rc.chunk_bytes = options_.drain_chunk_bytes;
    rc.log = options_.log;
    c->reader = std::make_unique<PerfReader>(*c->session, c->layouts, c->normalizer, c->mapper,
                                             c->report, rc);
    if (Status st = c->reader->start(); !st) return std::move(st).take_error();
    // What /proc says now, read while the reader drains (a busy system fills rings quickly) and
    // after enabling, so nothing falls between the two: records from before the read replay
    // onto it harmlessly (mappings are replaced, an exec starts over).
    ProcSeed seed;
    if (options_.follow_pids.empty()) {
        for (const std::int32_t pid : proc.pids())
            seed.processes.push_back({pid, proc.image(pid), proc.maps(pid)});
    } else if (!options_.from_exec) {
        for (const std::int32_t pid : options_.follow_pids) {
            seed.processes.push_back({pid, proc.image(pid), proc.maps(pid)});
            for (const std::int32_t tid : proc.tids(pid))
                seed.threads.push_back({tid, pid, proc.comm(pid, tid)});
        }
        seed.name_threads = true;
    }
    c->reader->seed(std::move(seed));

    log(LogLevel::Info, summary_line(c->plan.session, c->session->fds(),
                                     options_.follow_pids.empty() ? 0 : targets.size()));
    capture_ = std::move(c);
    return {};
}

void PerfSource::release_probe_events() {
    // The probe opens one event per tracepoint: each is a group of its own. The capture's own
    // events of the same tracepoints (if any) keep them registered, so these closes are quick;
    // those of a tracepoint the capture does not open (the Perf framing following a command)
    // wait for the kernel.
    std::map<int, std::uint64_t> tracepoint_of;
    for (const PerfFd& fd : probe_held_) tracepoint_of.emplace(fd.get(), tracepoint_of.size());
    close_events(probe_held_, tracepoint_of, options_.tracepoint_release);
}

PollResult PerfSource::poll(model::Nanos now, std::vector<model::Event>& out) {
    if (!capture_) return {now, true};
    return {capture_->reader->take(out, kMaxEventsPerPoll), false};
}

void PerfSource::stop(model::Nanos now, std::vector<model::Event>& out) {
    (void)now;
    if (!capture_) return;
    Capture& c = *capture_;
    c.reader->stop();
    c.session->disable();
    c.reader->finish(out);

    // The daemon logs these with every source's at the end of the capture.
    last_statistics_ = c.reader->stats();
    last_statistics_ += c.normalizer.statistics();
    last_statistics_ += c.mapper.stats();
    if (c.report.problem_count() > 0) {
        log(LogLevel::Warn,
            "perf: " + std::to_string(c.report.problem_count()) +
                " malformed records skipped; first: " + c.report.problems().front().to_string());
    }
    last_report_ = std::move(c.report);
    close_capture();
}

void PerfSource::close_capture() {
    if (capture_ && capture_->reader) capture_->reader->stop();
    capture_.reset();
}

std::size_t PerfSource::open_fds() const {
    return capture_ && capture_->session ? capture_->session->fds() : 0;
}

}  // namespace apcgate::collectors::perf
