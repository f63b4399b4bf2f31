#include "daemon/capture/perf_framing_capture.hpp"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <set>

#include "collectors/perf/capture_plan.hpp"
#include "collectors/perf/forwarded_texts.hpp"
#include "collectors/perf/kernel_build_id.hpp"
#include "collectors/perf/mapped_text.hpp"
#include "collectors/perf/perf_source.hpp"
#include "collectors/perf/proc_reader.hpp"
#include "protocol/model/timeline_clock.hpp"
#include "protocol/perf_framing/frame_writer.hpp"
#include "protocol/wire/overloaded.hpp"

namespace apcgate::daemon {

namespace {

namespace pf = collectors::perf;
namespace fr = perf_framing;

// Raw bytes per PERF_DATA frame: a packed word takes at most 10/8 of its raw size, so frames
// stay within the 1 MiB gatord's readers expect.
constexpr std::size_t kMaxRawPerFrame = std::size_t{800} * 1024;
// Unsent bytes above which a poll leaves the rings alone (see poll()).
constexpr std::uint64_t kMaxUnsentBytes = 8u << 20;

std::int64_t clock_ns(clockid_t id) {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::uint64_t load_le64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

fr::SummaryValues summary_values(std::int64_t base, bool switch_records, bool tracepoints,
                                 bool system_wide) {
    fr::SummaryValues s;
    s.realtime_ns = clock_ns(CLOCK_REALTIME);
    s.boottime_ns = clock_ns(CLOCK_BOOTTIME);
    s.monotonic_raw_ns = base;
    s.monotonic_ns = clock_ns(CLOCK_MONOTONIC);
    utsname u{};
    if (::uname(&u) == 0) {
        s.attributes.emplace_back("uname", std::string(u.sysname) + " " + u.nodename + " " +
                                               u.release + " " + u.version + " " + u.machine +
                                               " GNU/Linux");
    }
    s.attributes.emplace_back("PAGESIZE", std::to_string(::sysconf(_SC_PAGESIZE)));
    // Every attr samples CLOCK_MONOTONIC_RAW (use_clockid): no PERF_SYNC frames are needed.
    s.attributes.emplace_back("nosync", "");
    s.attributes.emplace_back("perf.can_access_tracepoints", tracepoints ? "1" : "0");
    s.attributes.emplace_back("perf.has_attr_context_switch", switch_records ? "1" : "0");
    s.attributes.emplace_back("perf.is_root", ::geteuid() == 0 ? "1" : "0");
    s.attributes.emplace_back("perf.is_system_wide", system_wide ? "1" : "0");
    return s;
}

}  // namespace

PerfFramingCapture::~PerfFramingCapture() {
    stop();
}

std::int64_t PerfFramingCapture::now() const {
    return model::timeline_clock_ns() - base_;
}

void PerfFramingCapture::frame(std::span<const std::uint8_t> body) {
    sink_.frame(body);
    ++totals_[PerfFramingStat::Frames];
    totals_[PerfFramingStat::Bytes] += body.size();
}

Result<std::unique_ptr<PerfFramingCapture>> PerfFramingCapture::start(
    CollectorSet& collectors, const model::CaptureSettings& settings,
    const model::CaptureCounters& counters, CaptureSink& sink) {
    pf::PerfSource* perf = collectors.perf;
    if (perf == nullptr || !perf->capabilities().usable)
        return Error::at(ErrorKind::Unsupported,
                         "the Perf framing needs perf events, and they do not open here");
    const pf::Capabilities& caps = perf->capabilities();
    const pf::PerfOptions& options = perf->options();
    const pf::ProcReader proc(options.proc_root);

    std::unique_ptr<PerfFramingCapture> c(new PerfFramingCapture(sink));
    c->base_ = model::timeline_clock_ns();
    const collectors::CaptureContext ctx{settings, counters, c->base_};
    const Targets targets = capture_targets(options, proc);
    Status opened = c->open_events(caps, ctx, targets, options.tracepoint_release);
    perf->release_probe_events();  // this capture's own events are open now, or never will be
    if (!opened) return std::move(opened).take_error();

    c->send_summary(caps, targets.system_wide);
    c->send_attrs(caps);
    c->send_threads(proc, targets.named);
    c->send_kernel_build_id(options.sys_root);
    c->send_keys();
    if (Status st = c->events_->enable(); !st) return std::move(st).take_error();
    c->send_online_cpus();
    c->send_maps(options.proc_root, targets.named);
    c->send_kallsyms(options.proc_root);
    c->start_counter_sources(collectors, ctx);
    sink.flush();
    c->started_ = true;
    return c;
}

PerfFramingCapture::Targets PerfFramingCapture::capture_targets(const pf::PerfOptions& options,
                                                                const pf::ProcReader& proc) {
    // The whole system, or the followed processes' threads (record --pid), or a command held
    // at its gate that execs once the events are open (record -- CMD: nothing to read of it
    // yet; the kernel's COMM record of its exec names it).
    Targets t;
    t.from_exec = options.from_exec;
    for (const std::int32_t pid : options.follow_pids) {
        std::vector<std::int32_t> tids =
            options.from_exec ? std::vector<std::int32_t>{} : proc.tids(pid);
        if (tids.empty()) tids.push_back(pid);
        t.tids.insert(t.tids.end(), tids.begin(), tids.end());
        if (!options.from_exec) t.named.push_back(pid);
    }
    t.system_wide = t.tids.empty();
    if (t.system_wide) {
        t.tids.push_back(-1);
        t.named = proc.pids();
    }
    return t;
}

Status PerfFramingCapture::open_events(const pf::Capabilities& caps,
                                       const collectors::CaptureContext& ctx,
                                       const Targets& targets, pf::TracepointRelease release) {
    pf::SessionPlan plan = pf::plan_capture(caps, ctx, targets.tids, targets.from_exec).session;
    plan.tracepoint_release = release;
    // Many threads times many CPUs can need more descriptors than the default soft limit.
    if (rlimit lim{}; ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &lim);
    }
    std::vector<std::string> warnings;
    auto events = pf::ForwardedEvents::open(plan, pf::kernel_opener(), warnings);
    for (const auto& w : warnings) spdlog::warn("perf: {}", w);
    if (!events) return std::move(events).take_error();
    events_ = std::move(events).value();
    return {};
}

void PerfFramingCapture::send_summary(const pf::Capabilities& caps, bool system_wide) {
    body_.clear();
    fr::write_summary(body_, summary_values(base_, caps.switch_records,
                                            caps.sched_switch.has_value(), system_wide));
    frame(body_);
}

void PerfFramingCapture::send_attrs(const pf::Capabilities& caps) {
    body_.clear();
    fr::AttrsFrameWriter w(body_);
    // The kernel's own format file of each tracepoint an event opens, once: a reader decodes
    // the RAW payloads with the offsets this kernel reports.
    std::set<std::uint64_t> formats;
    for (const pf::KeyedAttr& ka : events_->attrs()) {
        if (ka.attr.type != PERF_TYPE_TRACEPOINT || !formats.insert(ka.attr.config).second)
            continue;
        const pf::TracepointInfo* info = nullptr;
        for (const auto* t : {&caps.sched_switch, &caps.cpu_idle})
            if (t->has_value() && (*t)->id == ka.attr.config) info = &**t;
        if (info != nullptr) {
            w.format(info->format_text);
        } else {
            spdlog::warn(
                "perf: no tracefs format for tracepoint {} ({}): its payloads cannot "
                "be decoded from the capture",
                ka.attr.config, ka.what);
        }
    }
    for (const pf::KeyedAttr& ka : events_->attrs()) {
        std::vector<std::uint8_t> bytes(sizeof ka.attr);
        std::memcpy(bytes.data(), &ka.attr, sizeof ka.attr);
        w.pea(bytes, ka.key);
    }
    frame(body_);
}

void PerfFramingCapture::send_threads(const pf::ProcReader& proc,
                                      const std::vector<std::int32_t>& named) {
    body_.clear();
    fr::AttrsFrameWriter w(body_);
    for (const std::int32_t pid : named) {
        const std::string image = proc.image(pid);
        for (const std::int32_t tid : proc.tids(pid)) w.comm(pid, tid, image, proc.comm(pid, tid));
    }
    frame(body_);
}

void PerfFramingCapture::send_kernel_build_id(const std::filesystem::path& sys_root) {
    // The running kernel's build id (gatord sends it in a frame of its own after the names).
    auto id = pf::kernel_build_id(sys_root);
    if (!id) {
        spdlog::info("perf: no kernel build id in the capture: {}", id.error().to_string());
        return;
    }
    body_.clear();
    fr::AttrsFrameWriter(body_).kernel_build_id(*id);
    frame(body_);
}

void PerfFramingCapture::send_keys() {
    for (auto& cpu : events_->cpus()) {
        body_.clear();
        fr::AttrsFrameWriter(body_).keys(cpu.ids);
        frame(body_);
    }
}

void PerfFramingCapture::send_online_cpus() {
    for (auto& cpu : events_->cpus()) {
        body_.clear();
        fr::AttrsFrameWriter(body_).online_cpu(now(), cpu.cpu);
        frame(body_);
    }
}

void PerfFramingCapture::send_maps(const std::filesystem::path& proc_root,
                                   const std::vector<std::int32_t>& named) {
    for (const std::int32_t pid : named) {
        body_.clear();
        fr::AttrsFrameWriter(body_).maps(
            pid, pid, pf::read_proc_text(proc_root, std::to_string(pid) + "/maps"));
        frame(body_);
    }
}

void PerfFramingCapture::send_kallsyms(const std::filesystem::path& proc_root) {
    // /proc/kallsyms is 5 MB or more, sent once. Read into a mapping of its own with room for
    // the message's head before it and its NUL after, it is sent from there and unmapped: one
    // copy resident, for as long as it takes to send. (Built in body_, which keeps its capacity
    // for the frames to come, it held 10.8 MB for the whole capture; read into pieces and then
    // a frame, 10.8 MB at once.)
    std::vector<std::uint8_t> head;
    fr::AttrsFrameWriter(head).kallsyms_head();
    pf::MappedText text = pf::MappedText::read(proc_root, "kallsyms", head.size(), 1);
    if (text.size() == 0) return;
    std::copy(head.begin(), head.end(), text.room_before().begin());
    text.room_after()[0] = 0;
    frame(text.around(head.size(), 1));
}

void PerfFramingCapture::start_counter_sources(CollectorSet& collectors,
                                               const collectors::CaptureContext& ctx) {
    // Every source but perf, whose rings this framing reads itself: the /proc and /sys
    // counters, whose samples become Block Counter frames, and application annotations, whose
    // bytes go out in External frames, as gatord relays them.
    for (auto& s : collectors.sources) {
        if (s.get() == collectors.perf) continue;
        if (Status st = s->start(ctx); !st) {
            spdlog::warn("{}: {}", s->name(), st.error().to_string());
            continue;
        }
        sources_.push_back(s.get());
    }
}

void PerfFramingCapture::forward_ring(pf::ForwardedEvents::Cpu& cpu) {
    drained_.clear();
    auto drained = cpu.ring.drain(drained_);
    if (!drained) {
        spdlog::warn("perf ring cpu {}: {}", cpu.cpu, drained.error().to_string());
        return;
    }
    std::size_t start = 0, pos = 0;
    const auto send = [&](std::size_t end) {
        if (end == start) return;
        body_.clear();
        fr::write_perf_data(body_, cpu.cpu,
                            std::span<const std::uint8_t>(drained_).subspan(start, end - start));
        frame(body_);
        totals_[PerfFramingStat::RecordBytes] += end - start;
        start = end;
    };
    while (pos + 8 <= drained_.size()) {
        const std::uint64_t head = load_le64(drained_.data() + pos);
        const auto type = static_cast<std::uint32_t>(head);
        const auto size = static_cast<std::size_t>(head >> 48);
        // The kernel writes whole records of 8-byte multiples; anything else is not a record.
        if (size < 8 || size % 8 != 0 || pos + size > drained_.size()) {
            spdlog::warn("perf ring cpu {}: malformed record header at byte {}: {} bytes dropped",
                         cpu.cpu, pos, drained_.size() - pos);
            totals_[PerfFramingStat::MalformedBytes] += drained_.size() - pos;
            break;
        }
        if (pos + size - start > kMaxRawPerFrame) send(pos);
        if (type == PERF_RECORD_LOST && size >= 24) {
            ++totals_[PerfFramingStat::LostRecords];
            totals_[PerfFramingStat::LostEvents] += load_le64(drained_.data() + pos + 16);
        } else if (type == PERF_RECORD_LOST_SAMPLES && size >= 16) {
            ++totals_[PerfFramingStat::LostRecords];
            totals_[PerfFramingStat::LostEvents] += load_le64(drained_.data() + pos + 8);
        }
        ++totals_[PerfFramingStat::Records];
        pos += size;
    }
    send(pos);
}

void PerfFramingCapture::forward_source_events(std::vector<model::Event>& events) {
    std::vector<std::pair<std::int32_t, std::int64_t>> entries;
    std::optional<model::Nanos> ts;
    std::int32_t core = 0;
    for (const model::Event& e : events) {
        if (const auto* x = std::get_if<model::ExternalData>(&e)) {
            body_.clear();
            fr::write_external(body_, x->id, x->bytes);
            frame(body_);
            continue;
        }
        if (const auto* x = std::get_if<model::ExternalDisconnect>(&e)) {
            body_.clear();
            fr::write_external_disconnect(body_, x->id);
            frame(body_);
            continue;
        }
        // Names: COMM messages and the kernel's COMM records carry them in this framing.
        if (std::holds_alternative<model::ProcComm>(e) ||
            std::holds_alternative<model::ThreadName>(e) ||
            std::holds_alternative<model::CoreName>(e))
            continue;
        const auto* s = std::get_if<model::CounterSample>(&e);
        if (s == nullptr) {
            // E.g. the text form's annotations (the seed's Annotate frames): no Perf-type frame
            // carries them. Counted and reported, never dropped silently.
            ++totals_[PerfFramingStat::EventsWithoutFrame];
            continue;
        }
        if (!ts || *ts != s->ts) {
            ts = s->ts;
            entries.emplace_back(0, s->ts);
            core = 0;
        }
        if (s->core != core) {
            entries.emplace_back(2, s->core);
            core = s->core;
        }
        entries.emplace_back(s->key, s->value);
    }
    events.clear();
    if (entries.empty()) return;
    body_.clear();
    fr::write_block_counter(body_, 0, entries);
    frame(body_);
}

void PerfFramingCapture::poll() {
    if (stopped_) return;
    // A client that reads slowly: the records stay in the rings, and what the kernel then
    // cannot write arrives as LOST records (counted), instead of the daemon buffering without
    // bound.
    if (sink_.unsent_bytes() <= kMaxUnsentBytes) {
        for (auto& cpu : events_->cpus()) forward_ring(cpu);
    } else {
        if (totals_[PerfFramingStat::PollsHeldBack]++ == 0)
            spdlog::info(
                "the client reads slowly ({} bytes unsent): the records stay in the "
                "kernel's rings until it catches up (LOST records say what they could "
                "not hold)",
                sink_.unsent_bytes());
    }
    const model::Nanos t = now();
    for (collectors::Source* s : sources_) s->poll(t, source_events_);
    forward_source_events(source_events_);
    sink_.flush();
}

void PerfFramingCapture::stop() {
    // A capture that failed to start sends no end of sequence: its caller reports the error.
    if (stopped_ || !started_) return;
    events_->disable();
    for (auto& cpu : events_->cpus()) forward_ring(cpu);
    const model::Nanos t = now();
    for (collectors::Source* s : sources_) s->stop(t, source_events_);
    forward_source_events(source_events_);
    stopped_ = true;
    sink_.flush();
    sink_.finish();
}

std::vector<StatisticsOf> PerfFramingCapture::statistics() const {
    std::vector<StatisticsOf> out = sources_statistics(sources_);
    out.push_back({"perf_framing", totals_.values()});
    return out;
}

}  // namespace apcgate::daemon
