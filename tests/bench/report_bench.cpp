// `apcgate report` against `apcgate convert` on the XRay benchmarks' large log (64 MiB FDR v5
// synthesized, or XRAY_BENCH_LOG=path; xray_bench_log.hpp): the issue asks that reporting on the
// capture take no longer than converting the log did. Both run in-process as the subcommands
// run them (their output into a string): BM_ConvertXrayLog writes a fresh capture per iteration,
// BM_ReportConvertedCapture analyses the capture converted once beforehand and prints its JSON.
#include <benchmark/benchmark.h>

#include <sstream>

#include "daemon/analysis/capture_analysis.hpp"
#include "daemon/analysis/report_output.hpp"
#include "daemon/cli/cli.hpp"
#include "tests/bench/xray_bench_log.hpp"

namespace apcgate::xray_bench {
namespace {

daemon::ConvertOptions convert_options(const std::filesystem::path& out) {
    daemon::ConvertOptions o;
    o.inputs = {"xray:" + bench_log().path.string()};
    if (!bench_log().binary.empty()) o.binaries = {bench_log().binary};
    o.output = out;
    o.force = true;
    o.log_level = "error";
    return o;
}

void BM_ConvertXrayLog(benchmark::State& state) {
    const auto& log = bench_log();
    for (auto _ : state) {
        state.PauseTiming();
        ScratchCapture scratch;
        state.ResumeTiming();
        std::ostringstream out, err;
        const int rc = daemon::run_convert(convert_options(scratch.dir()), out, err);
        if (rc != 0) state.SkipWithError(("convert exit " + std::to_string(rc) + ": " + err.str()).c_str());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.bytes.size()));
}
BENCHMARK(BM_ConvertXrayLog)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReportConvertedCapture(benchmark::State& state) {
    ScratchCapture scratch;
    std::ostringstream cout, cerr;
    if (daemon::run_convert(convert_options(scratch.dir()), cout, cerr) != 0) {
        state.SkipWithError(("convert failed: " + cerr.str()).c_str());
        return;
    }
    std::uint64_t capture_bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(scratch.dir()))
        capture_bytes += e.file_size();
    std::uint64_t spans = 0;
    for (auto _ : state) {
        auto analysed = daemon::analysis::analyse_capture(scratch.dir(), {});
        if (!analysed) {
            state.SkipWithError(analysed.error().to_string().c_str());
            break;
        }
        const std::string json = daemon::analysis::report_json(analysed->report, 0).dump();
        benchmark::DoNotOptimize(json.data());
        spans = 0;
        for (const auto& s : analysed->report.spans) spans += s.count;
    }
    state.counters["capture_MB"] = static_cast<double>(capture_bytes) / 1e6;
    state.counters["spans"] = static_cast<double>(spans);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * capture_bytes));
}
BENCHMARK(BM_ReportConvertedCapture)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace apcgate::xray_bench
