// XRay ingester throughput on a large FDR v5 log (64 MiB, the default; XRAY_BENCH_LOG=path
// takes a real one instead, XRAY_BENCH_BINARY=path its executable for names): the reader alone
// (header, index, every buffer tokenized, verified and expanded, threads merged in time order), the
// reader plus the mapping to model events (spans, counters), and that driven by the capture
// engine (merging, APC encoding) as `apcgate convert` drives it, short of writing the file;
// then `convert` whole, into a real .apc directory (ApcDirectory, the sink `convert` uses); and
// the writing alone: the same frames, encoded beforehand, through the same sink
// (xray_floor_bench.cpp has the floor under all of it). Bytes processed are input bytes in every
// one, so the rates read as MB/s of log and the parts compare directly. The source may decode on a
// thread of its own, so its benchmarks measure the whole process's CPU time (kernel time included:
// the writing is mostly that) and report rates per second of wall time (the CPU column says what
// all threads spent). The log: xray_bench_log.hpp.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "collectors/xray/xray_reader.hpp"
#include "collectors/xray/xray_source.hpp"
#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/capture_engine.hpp"
#include "tests/bench/xray_bench_log.hpp"

namespace apcgate::collectors::xray {
namespace {

using xray_bench::bench_log;
using xray_bench::BenchLog;
using xray_bench::into_fresh_capture;

void BM_XrayReader(benchmark::State& state) {
    const BenchLog& log = bench_log();
    std::uint64_t events = 0;
    for (auto _ : state) {
        ingest::IngestReport report("xray", "bench");
        auto reader = XrayReader::open(log.bytes, "bench", report);
        if (!reader) state.SkipWithError("cannot open the log");
        std::uint32_t thread = 0;
        const CallEvent* e = nullptr;
        events = 0;
        std::uint64_t sum = 0;
        for (XrayReader::Step step;
             (step = (*reader)->next(thread, e)) != XrayReader::Step::Done;) {
            if (step != XrayReader::Step::Event) continue;
            sum += e->function;
            ++events;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["events"] = static_cast<double>(events);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.bytes.size()));
}
BENCHMARK(BM_XrayReader)->Unit(benchmark::kMillisecond);

// Sinks for the conversion without a file: frames counted, or kept.
class CountingSink : public daemon::CaptureSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes += body.size(); }
    void flush() override {}
    void finish() override {}
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes; }
    std::uint64_t bytes = 0;
};

// Every frame body, kept: what the encoder makes of the log, for the writing-alone benchmark.
class KeepingSink : public daemon::CaptureSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        frames.emplace_back(body.begin(), body.end());
        bytes += body.size();
    }
    void flush() override {}
    void finish() override {}
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes; }
    std::vector<std::vector<std::uint8_t>> frames;
    std::uint64_t bytes = 0;
};

// The source opened and started as `convert` does it; null (the benchmark skipped) on failure.
struct StartedSource {
    std::unique_ptr<XraySource> source;
    model::CaptureCounters counters;
};
StartedSource open_source(benchmark::State& state, bool start) {
    const BenchLog& log = bench_log();
    auto source = XraySource::open({log.path, log.binary});
    if (!source) {
        state.SkipWithError(source.error().to_string().c_str());
        return {};
    }
    model::CounterCatalog catalog;
    (*source)->declare(catalog);
    StartedSource s{std::move(*source),
                    model::CaptureCounters::assign(catalog, catalog.defaults())};
    if (start &&
        !s.source->start({model::CaptureSettings{}, s.counters, s.source->time_origin()})) {
        state.SkipWithError("start");
        return {};
    }
    return s;
}

// The source polled to its end, its events counted and dropped: decoding and mapping alone.
void run_source(benchmark::State& state) {
    StartedSource s = open_source(state, true);
    if (!s.source) return;
    std::uint64_t events = 0;
    std::vector<model::Event> out;
    for (;;) {
        const PollResult r = s.source->poll(0, out);
        for (const auto& e : out) events += model::event_count(e);  // annotations, not runs
        out.clear();
        if (r.finished) break;
    }
    state.counters["model_events"] = static_cast<double>(events);
}

// The conversion as `convert` runs it (daemon/cli/convert.cpp): the capture engine merging,
// encoding and handing the frames to `sink`, polled until the source ran out, then finished.
void run_conversion(benchmark::State& state, daemon::CaptureSink& sink) {
    StartedSource s = open_source(state, false);
    if (!s.source) return;
    daemon::CapturePlan plan;
    plan.counters = s.counters;
    plan.sources = {s.source.get()};
    plan.zero_monotonic_ns = s.source->time_origin();
    daemon::CaptureEngine engine(std::move(plan), sink);
    if (!engine.start()) {
        state.SkipWithError("start");
        return;
    }
    while (engine.recorded_running()) {
        engine.poll_behind(0);
        engine.encode_ready();
    }
    engine.finish(0);
    state.counters["model_events"] = static_cast<double>(engine.totals().events);
}

void set_rates(benchmark::State& state) {
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * bench_log().bytes.size()));
}

void BM_XrayToModelEvents(benchmark::State& state) {
    bench_log();  // made (or read) before the timing starts
    for (auto _ : state) run_source(state);
    set_rates(state);
}
BENCHMARK(BM_XrayToModelEvents)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void BM_XrayToApcFrames(benchmark::State& state) {
    bench_log();  // made (or read) before the timing starts
    for (auto _ : state) {
        CountingSink sink;
        run_conversion(state, sink);
        benchmark::DoNotOptimize(sink.bytes);
    }
    set_rates(state);
}
BENCHMARK(BM_XrayToApcFrames)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// `apcgate convert` but for the XML documents: into a fresh .apc directory, left to the
// kernel's writeback as convert leaves it.
void BM_XrayToApcDirectory(benchmark::State& state) {
    bench_log();  // made (or read) before the timing starts
    for (auto _ : state) {
        if (!into_fresh_capture(state, [&](daemon::ApcDirectory& d) { run_conversion(state, d); }))
            return;
    }
    set_rates(state);
}
BENCHMARK(BM_XrayToApcDirectory)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// Only the writing of what the conversion writes: the frames, encoded beforehand, through the
// same sink in the same order. With BM_XrayReader it bounds from below what any mapping and
// encoding could make of the conversion on this machine.
void BM_ApcDirectoryWriteAlone(benchmark::State& state) {
    KeepingSink kept;
    run_conversion(state, kept);
    for (auto _ : state) {
        const bool ok = into_fresh_capture(state, [&](daemon::ApcDirectory& d) {
            for (const auto& f : kept.frames) d.frame(f);
            d.finish();
        });
        if (!ok) return;
    }
    state.counters["output_bytes"] = static_cast<double>(kept.bytes);
    set_rates(state);
}
BENCHMARK(BM_ApcDirectoryWriteAlone)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

}  // namespace
}  // namespace apcgate::collectors::xray
