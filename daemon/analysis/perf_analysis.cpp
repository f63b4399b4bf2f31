#include "daemon/analysis/perf_analysis.hpp"

#include <linux/perf_event.h>

#include <algorithm>

#include "daemon/analysis/connection_annotations.hpp"
#include "daemon/analysis/counter_statistics.hpp"
#include "daemon/analysis/perf_samples.hpp"
#include "daemon/analysis/perf_switches.hpp"
#include "daemon/analysis/span_statistics.hpp"
#include "daemon/analysis/stack_profile.hpp"
#include "daemon/analysis/timeline_accounting.hpp"
#include "daemon/capture/capture_files.hpp"
#include "daemon/capture/perf_capture_summary.hpp"
#include "protocol/wire/overloaded.hpp"

namespace apcgate::daemon::analysis {

namespace {

namespace pfr = perf_framing;

// Who a record says is running, or what task its body is about: the thread's process.
void note_process(TimelineAccounting& timeline, const pfr::PerfRecord& r) {
    if (r.pid && r.tid)
        timeline.process_of(static_cast<std::int32_t>(*r.tid), static_cast<std::int32_t>(*r.pid));
    switch (r.header.type) {
        case PERF_RECORD_COMM:
        case PERF_RECORD_FORK:
        case PERF_RECORD_EXIT:
        case PERF_RECORD_SWITCH_CPU_WIDE:
            timeline.process_of(static_cast<std::int32_t>(r.body_tid),
                                static_cast<std::int32_t>(r.body_pid));
            break;
        default:
            break;
    }
}

// Hands each frame and record of a Perf-type capture to the accumulators.
class PerfAnalysis {
  public:
    explicit PerfAnalysis(const AnalysisOptions& options)
        : symbols_(options.symbols), stacks_(symbols_, options.pid) {}

    void frame(const pfr::DecodedPerfFrame& f) {
        if (const auto* x = std::get_if<pfr::ExternalFrame>(&f.body)) {
            if (x->disconnect) {
                connections_.disconnect(x->id);
            } else {
                connections_.data(x->id, x->data);
            }
            return;
        }
        const auto* attrs = std::get_if<pfr::PerfAttrsFrame>(&f.body);
        if (attrs == nullptr) return;
        for (const pfr::AttrsMessage& m : attrs->messages) {
            std::visit(wire::Overloaded{
                           [&](const pfr::PeaMessage& p) { switches_.attr(p.attr); },
                           [&](const pfr::TextMessage& t) {
                               if (m.code == pfr::AttrsCode::Format) switches_.format(t.text);
                               if (m.code == pfr::AttrsCode::Kallsyms) {
                                   symbols_.kernel_symbols().parse(t.text);
                                   kallsyms_ = true;
                               }
                           },
                           [&](const pfr::MapsMessage& p) { samples_.maps(p.pid, p.maps); },
                           [&](const pfr::CpuMessage& c) {
                               switches_.cpu_online(c.cpu, m.code == pfr::AttrsCode::OnlineCpu);
                           },
                           [&](const pfr::CommMessage& c) {
                               timeline_.process_of(c.tid, c.pid);
                               timeline_.process_image(c.pid, std::string(c.image));
                           },
                           [](const auto&) {},
                       },
                       m.body);
        }
    }

    void record(const pfr::RecordView& v) {
        const pfr::PerfRecord& r = *v.record;
        samples_.record(v);
        switches_.record(v);
        note_process(timeline_, r);
        if (r.header.type != PERF_RECORD_SAMPLE || !r.tid) return;
        if (v.attr == nullptr || !is_cpu_sampler(*v.attr)) return;
        ++cpu_samples_;
        timeline_.sample(r.pid ? static_cast<std::int32_t>(*r.pid) : -1,
                         static_cast<std::int32_t>(*r.tid));
    }

    void finish(const PerfCaptureSummary& summary, Report& r) {
        const auto& t = summary.tally;
        const auto last = static_cast<std::int64_t>(t.last_time.value_or(0));
        if (t.first_time && t.last_time)
            r.duration_ns = last - static_cast<std::int64_t>(*t.first_time);
        switches_.finish();
        timeline_.finish(last);
        spans_.finish(last);
        r.samples = cpu_samples_;
        for (const auto& [tid, name] : t.threads) timeline_.name_thread(tid, name, true);
        timeline_.fill(r);
        stacks_.fill(r);
        spans_.fill(r);
        samples_.fill(r);
        switches_.fill(r);
        connections_.fill(r);
        if (!switches_.has_switch_source() || switches_.switches() == 0)
            r.notes.emplace_back(
                "no context switches in the capture (neither switch records nor sched_switch "
                "samples): threads' cpu_ns and wait times are 0; their CPU samples are counted");
        if (cpu_samples_ == 0) r.notes.emplace_back("no CPU samples: no functions or stacks");
        const KernelSymbols& kernel = symbols_.kernel_symbols();
        if (!kallsyms_) {
            r.notes.emplace_back("no KALLSYMS text in the capture: kernel functions are [kernel]");
        } else if (kernel.hidden()) {
            r.notes.emplace_back(
                "the capture's KALLSYMS text lists every address as 0 (kernel.kptr_restrict on "
                "the target): kernel functions are [kernel]");
        }
        if (const auto& k = kernel.skipped(); k.total() > 0)
            r.losses.add(AnalysisStat::KallsymsLinesSkipped, k.total(),
                         std::to_string(k.malformed) + " not /proc/kallsyms lines, " +
                             std::to_string(k.name_too_long) + " with names longer than " +
                             std::to_string(KernelSymbols::kMaxNameBytes) + " bytes, " +
                             std::to_string(k.past_limit) + " past " +
                             std::to_string(kernel.limits().symbols) +
                             " symbols (or their names' bytes)");
        for (const auto& image : symbols_.unreadable())
            r.notes.push_back("cannot read the symbols of " + image +
                              " (its functions are shown as offsets; see --binary-dir, --sysroot)");
    }

  private:
    ImageSymbols symbols_;
    StackProfile stacks_;
    PerfSamples samples_{symbols_, stacks_};
    TimelineAccounting timeline_;
    PerfSwitches switches_{timeline_};
    SpanStatistics spans_;
    // The annotation library's times are CLOCK_MONOTONIC_RAW, the clock every record of this
    // framing is taken with: both stay absolute, so no clock zero is set.
    ConnectionAnnotations connections_{spans_};
    bool kallsyms_ = false;
    std::uint64_t cpu_samples_ = 0;
};

}  // namespace

Result<Analysis> analyse_perf_capture(const std::filesystem::path& dir,
                                      const AnalysisOptions& options) {
    PerfAnalysis analysis(options);
    auto summary = summarize_perf_capture(
        dir, [&](const pfr::RecordView& v) { analysis.record(v); }, {},
        [&](const pfr::DecodedPerfFrame& f) { analysis.frame(f); });
    if (!summary) return std::move(summary).take_error();
    const auto& t = summary->tally;
    Analysis out;
    Report& r = out.report;
    r.capture = dir.string();
    r.framing = "perf";
    analysis.finish(*summary, r);
    CounterStatistics counters(summary->captured.counters, read_event_infos(dir));
    for (const auto& [key, kv] : t.counter_values)
        counters.values(key, kv.values, kv.min, kv.max, std::nullopt);
    counters.fill(r);
    r.losses.add(AnalysisStat::LostRecords, t.lost_records,
                 std::to_string(t.lost_events) + " events dropped");
    if (summary->end == apc::StreamEnd::Truncated && summary->error)
        r.losses.add(AnalysisStat::TruncatedFrame, 1, summary->error->to_string());
    else if (summary->error)
        out.data_error = *summary->error;
    r.losses.add(AnalysisStat::InvalidRecords, summary->violations.size());
    return out;
}

}  // namespace apcgate::daemon::analysis
