// FXT ingest throughput on a large archive written by the test tree's FXT writer: a mix like a
// Fuchsia system trace (interned strings and threads, nested durations, complete events, counters,
// context switches and wakeups on 4 CPUs, logs), FXT_BENCH_MB MiB of it (default 256), kept at
// FXT_BENCH_FILE (default /tmp/apcgate_fxt_bench.fxt) so `dd` and `apcgate convert` can be timed
// on the same bytes. Reports bytes/s for the first pass alone, for the whole read (both
// passes, ordering and mapping to model events), and for `convert` whole (the capture engine
// encoding into a fresh .apc directory; fxt_floor_bench.cpp has the floor under it). Rates are
// input bytes per second of wall time; the conversion's CPU column is the whole process's.
#include <benchmark/benchmark.h>

#include "collectors/fxt/fxt_source.hpp"
#include "daemon/capture/capture_engine.hpp"
#include "protocol/wire/mapped_file.hpp"
#include "tests/bench/fresh_capture.hpp"
#include "tests/bench/fxt_bench_archive.hpp"

namespace apcgate::fxt_test {
namespace {

void BM_FxtIndexPass(benchmark::State& state) {
    auto input = wire::MappedFile::open(archive());
    if (!input) {
        state.SkipWithError("cannot open the archive");
        return;
    }
    const auto bytes = input->bytes();
    for (auto _ : state) benchmark::DoNotOptimize(collectors::fxt::build_index(bytes));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_FxtIngest(benchmark::State& state) {
    std::size_t size = 0;
    std::size_t events = 0;
    for (auto _ : state) {
        auto src = collectors::fxt::FxtSource::open(archive());
        if (!src) {
            state.SkipWithError("cannot open the archive");
            return;
        }
        auto& s = **src;
        model::CounterCatalog catalog;
        s.declare(catalog);
        model::Configuration cfg;
        for (const auto& c : catalog.counters())
            cfg.counters.push_back({c.counter, c.event, {}, {}});
        const auto counters = model::CaptureCounters::assign(catalog, cfg);
        const model::CaptureSettings settings;
        (void)s.start({settings, counters, s.time_origin()});
        std::vector<model::Event> out;
        for (;;) {
            out.clear();
            const auto r = s.poll(0, out);
            events += out.size();
            if (r.finished) break;
        }
        size = s.report().bytes_total;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
    state.counters["events"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

// `apcgate convert` but for the XML documents (cli_convert.cpp): every declared counter on, the
// capture engine polling the source, encoding and writing into a fresh .apc directory, left to
// the kernel's writeback as convert leaves it.
void BM_FxtToApcDirectory(benchmark::State& state) {
    std::uint64_t written = 0;
    const auto& path = archive();  // written before the timing starts
    for (auto _ : state) {
        auto src = collectors::fxt::FxtSource::open(path);
        if (!src) {
            state.SkipWithError("cannot open the archive");
            return;
        }
        model::CounterCatalog catalog;
        (*src)->declare(catalog);
        model::Configuration cfg;
        for (const auto& c : catalog.counters())
            cfg.counters.push_back({c.counter, c.event, {}, {}});
        daemon::CapturePlan plan;
        plan.counters = model::CaptureCounters::assign(catalog, cfg);
        plan.sources = {src->get()};
        plan.zero_monotonic_ns = (*src)->time_origin();
        const bool ok = bench::into_fresh_capture(state, [&](daemon::ApcDirectory& d) {
            daemon::CaptureEngine engine(std::move(plan), d);
            if (!engine.start()) return;
            while (engine.recorded_running()) {
                engine.poll_behind(0);
                engine.encode_ready();
            }
            engine.finish(0);
            written = d.bytes_written();
        });
        if (!ok) return;
    }
    state.counters["output_bytes"] = static_cast<double>(written);
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(archive())));
}

BENCHMARK(BM_FxtIndexPass)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FxtIngest)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FxtToApcDirectory)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
}  // namespace apcgate::fxt_test
