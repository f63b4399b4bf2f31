// `apcgate report` against `apcgate convert` on the XRay benchmarks' large log (64 MiB FDR v5
// synthesized, or XRAY_BENCH_LOG=path; xray_bench_log.hpp): the issue asks that reporting on the
// capture take no longer than converting the log did. Both run in-process as the subcommands
// run them (their output into a string): BM_ConvertXrayLog writes a fresh capture per iteration,
// BM_ReportConvertedCapture analyses the capture converted once beforehand and prints its JSON
// (reading its frames on a thread of their own when there is more than one CPU, as the command
// does); BM_ReportConvertedCaptureOneThread the same on the caller's thread only. At the end the
// program prints the ratio of the median wall times report/convert.
// tests/bench/report_vs_convert.sh measures the same with the commands, and the peak RSS.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
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
        if (rc != 0)
            state.SkipWithError(("convert exit " + std::to_string(rc) + ": " + err.str()).c_str());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.bytes.size()));
}
BENCHMARK(BM_ConvertXrayLog)->Unit(benchmark::kMillisecond)->UseRealTime();

void report_converted_capture(benchmark::State& state, std::optional<bool> reading_thread) {
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
        daemon::analysis::AnalysisOptions options;
        options.reading_thread = reading_thread;
        auto analysed = daemon::analysis::analyse_capture(scratch.dir(), options);
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

void BM_ReportConvertedCapture(benchmark::State& state) {
    report_converted_capture(state, std::nullopt);
}
BENCHMARK(BM_ReportConvertedCapture)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReportConvertedCaptureOneThread(benchmark::State& state) {
    report_converted_capture(state, false);
}
BENCHMARK(BM_ReportConvertedCaptureOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

// The console output, and then the ratio of the medians of each report benchmark's runs (each
// repetition one run) to the convert benchmark's.
class RatioReporter : public benchmark::ConsoleReporter {
  public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.error_occurred) continue;
            if (run.run_type == Run::RT_Iteration)
                times_[run.run_name.function_name].push_back(run.GetAdjustedRealTime());
            // With --benchmark_report_aggregates_only only the aggregates come here.
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
                medians_[run.run_name.function_name] = {run.GetAdjustedRealTime(), run.repetitions};
        }
    }
    void Finalize() override {
        ConsoleReporter::Finalize();
        const double convert = median("BM_ConvertXrayLog");
        if (convert <= 0) return;
        for (const char* report :
             {"BM_ReportConvertedCapture", "BM_ReportConvertedCaptureOneThread"}) {
            const double r = median(report);
            if (r <= 0) continue;
            std::printf(
                "%s/BM_ConvertXrayLog: %.2f (medians of %zu and %zu runs: %.0f ms / %.0f ms)\n",
                report, r / convert, runs(report), runs("BM_ConvertXrayLog"), r, convert);
        }
    }

  private:
    double median(const std::string& name) {
        if (auto it = medians_.find(name); it != medians_.end()) return it->second.first;
        auto& v = times_[name];
        if (v.empty()) return 0;
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    }
    std::size_t runs(const std::string& name) {
        if (auto it = medians_.find(name); it != medians_.end())
            return static_cast<std::size_t>(it->second.second);
        return times_[name].size();
    }
    std::map<std::string, std::vector<double>> times_;
    std::map<std::string, std::pair<double, std::int64_t>> medians_;  // real time, repetitions
};

}  // namespace
}  // namespace apcgate::xray_bench

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    apcgate::xray_bench::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
