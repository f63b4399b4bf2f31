#include "daemon/analysis/perf_analysis.hpp"

#include "daemon/analysis/counter_statistics.hpp"
#include "daemon/analysis/perf_samples.hpp"
#include "daemon/analysis/stack_profile.hpp"
#include "daemon/analysis/timeline_accounting.hpp"
#include "daemon/capture_files.hpp"
#include "daemon/perf_capture_summary.hpp"

namespace apcgate::daemon::analysis {

namespace {

std::vector<xml::EventInfo> read_events(const std::filesystem::path& dir) {
    const auto text = read_document(dir / "events.xml");
    if (!text) return {};
    auto parsed = xml::parse_events(*text);
    if (!parsed) return {};
    return std::move(parsed).value();
}

}  // namespace

Result<Analysis> analyse_perf_capture(const std::filesystem::path& dir,
                                      const AnalysisOptions& options) {
    TimelineAccounting timeline;
    ImageSymbols symbols(options.symbols);
    StackProfile stacks(symbols, options.pid);
    PerfSamples perf_samples(symbols, stacks);
    std::uint64_t samples = 0;
    auto on_record = [&](const perf_framing::RecordView& v) {
        const perf_framing::PerfRecord& rec = *v.record;
        perf_samples.record(v);
        if (rec.header.type != 9 /* PERF_RECORD_SAMPLE */ || !rec.tid) return;
        ++samples;
        timeline.sample(rec.pid ? static_cast<std::int32_t>(*rec.pid) : -1,
                        static_cast<std::int32_t>(*rec.tid));
    };
    auto summary = summarize_perf_capture(dir, on_record);
    if (!summary) return std::move(summary).take_error();
    const auto& t = summary->tally;
    Analysis out;
    Report& r = out.report;
    r.capture = dir.string();
    r.framing = "perf";
    if (t.first_time && t.last_time) r.duration_ns = static_cast<std::int64_t>(*t.last_time - *t.first_time);
    r.samples = samples;
    for (const auto& [tid, name] : t.threads) timeline.name_thread(tid, name, true);
    timeline.fill(r);
    stacks.fill(r);
    for (const auto& image : symbols.unreadable())
        r.notes.push_back("cannot read the symbols of " + image +
                          " (its functions are shown as offsets; see --binary-dir, --sysroot)");
    CounterStatistics counters(summary->captured.counters, read_events(dir));
    for (const auto& [key, kv] : t.counter_values)
        counters.values(key, kv.values, kv.min, kv.max, std::nullopt);
    counters.fill(r);
    if (t.lost_records > 0)
        r.losses.push_back({"lost_records", t.lost_records,
                            std::to_string(t.lost_events) +
                                " events the kernel dropped (LOST and LOST_SAMPLES records)"});
    if (summary->end == apc::StreamEnd::Truncated && summary->error)
        r.losses.push_back({"truncated_frame", 1,
                            "the last frame is cut short (a recorder killed mid-write): " +
                                summary->error->to_string()});
    else if (summary->error)
        out.data_error = *summary->error;
    if (!summary->violations.empty()) {
        r.losses.push_back({"invalid_records", summary->violations.size(),
                            "frames or records that break the Perf framing's rules (see "
                            "apcgate inspect): skipped"});
    }
    r.notes.emplace_back(
        "Perf framing: the capture holds the kernel's perf records as they are; this report "
        "has their samples per thread and process, functions and call stacks (addresses of "
        "processes that were running before the capture began, whose mappings only the MAPS "
        "text holds, are [unknown]), counter values and losses, but no CPU time (no activity "
        "timeline) and no spans (use record --framing gator for those)");
    return out;
}

}  // namespace apcgate::daemon::analysis
