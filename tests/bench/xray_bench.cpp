// XRay ingester throughput on a large FDR v5 log (64 MiB, the default; XRAY_BENCH_LOG=path
// takes a real one instead, XRAY_BENCH_BINARY=path its executable for names): the reader alone
// (header, index, every buffer tokenized, verified and expanded, threads merged in time order), the
// reader plus the mapping to model events (spans, counters), and that driven by the capture
// engine (merging, APC encoding) as `apcgate convert` drives it, short of writing the file;
// then `convert` whole, into a real .apc
// directory (ApcDirectory, the sink `convert` uses); and, for the floor any design of the middle
// meets, the writing alone: the same frames, encoded beforehand, through the same sink. Bytes
// processed are input bytes in every one, so the rates read as MB/s of log and the parts compare
// directly. The source may decode on a thread of its own, so its benchmarks measure the whole
// process's CPU time (kernel time included: the writing is mostly that) and report rates per second
// of wall time (the CPU column says what all threads spent).
//
// The synthesized log looks like the runtime's: 4 threads, 64 KiB buffers of NewBuffer,
// WallClockTime, Pid, NewCPUId and then function records of a call tree 6 deep (one call in 16
// logging an argument), a custom event every 512 calls, interleaved in the file as the buffer
// queue hands them out.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "collectors/xray/xray_reader.hpp"
#include "collectors/xray/xray_source.hpp"
#include "daemon/apc_directory.hpp"
#include "daemon/capture_engine.hpp"

namespace apcgate::collectors::xray {
namespace {

constexpr std::size_t kLogBytes = 64u << 20;
constexpr std::size_t kBufferBytes = 64u << 10;
constexpr int kThreads = 4;

class LogWriter {
  public:
    void u8(std::uint8_t v) { out.push_back(v); }
    void u16(std::uint16_t v) { put(v, 2); }
    void u32(std::uint32_t v) { put(v, 4); }
    void u64(std::uint64_t v) { put(v, 8); }
    void meta(std::uint8_t kind) { u8(static_cast<std::uint8_t>((kind << 1) | 1U)); }
    void pad_to(std::size_t start) { out.resize(start + 16, 0); }
    void function(std::uint8_t action, std::uint32_t id, std::uint32_t delta) {
        u32((id << 4) | (static_cast<std::uint32_t>(action) << 1));
        u32(delta);
    }
    std::vector<std::uint8_t> out;

  private:
    void put(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
};

// One thread's buffer: the preamble, then calls until the buffer is nearly full.
void write_buffer(LogWriter& w, int thread, std::uint64_t& tsc, std::uint32_t& calls) {
    const std::size_t extents_at = w.out.size();
    w.meta(7);
    w.u64(0);
    w.pad_to(extents_at);
    const std::size_t start = w.out.size();
    std::size_t at = w.out.size();
    w.meta(0), w.u32(static_cast<std::uint32_t>(1000 + thread)), w.pad_to(at);
    at = w.out.size();
    w.meta(4), w.u64(tsc / 1'000'000'000), w.u32(0), w.pad_to(at);
    at = w.out.size();
    w.meta(9), w.u32(999), w.pad_to(at);
    at = w.out.size();
    w.meta(2), w.u16(static_cast<std::uint16_t>(thread)), w.u64(tsc), w.pad_to(at);
    while (w.out.size() - start + 6 * (16 + 8 + 24) + 64 < kBufferBytes) {
        // A call tree 6 deep, as recursion makes: enter 1..6 then exit 6..1.
        for (std::uint32_t d = 1; d <= 6; ++d) {
            ++calls;
            if (calls % 16 == 0) {
                w.function(3, d, 40);
                at = w.out.size();
                w.meta(6), w.u64(calls), w.pad_to(at);
            } else {
                w.function(0, d, 40);
            }
        }
        for (std::uint32_t d = 6; d >= 1; --d) w.function(1, d, 55);
        tsc += 6 * 40 + 6 * 55;
        if (calls % 512 < 6) {
            at = w.out.size();
            w.meta(5), w.u32(12), w.u32(3), w.pad_to(at);
            const std::string text = "custom event";
            w.out.insert(w.out.end(), text.begin(), text.end());
            tsc += 3;
        }
    }
    const std::uint64_t size = w.out.size() - start;
    for (int i = 0; i < 8; ++i)
        w.out[extents_at + 1 + static_cast<std::size_t>(i)] =
            static_cast<std::uint8_t>(size >> (8 * i));
}

std::vector<std::uint8_t> synthesize() {
    LogWriter w;
    w.u16(5), w.u16(1), w.u32(3), w.u64(3'000'000'000ULL), w.u64(kBufferBytes), w.u64(0);
    std::uint64_t tsc[kThreads];
    std::uint32_t calls[kThreads] = {};
    for (int t = 0; t < kThreads; ++t)
        tsc[t] = 1'000'000'000'000ULL + static_cast<std::uint64_t>(t) * 777;
    while (w.out.size() < kLogBytes) {
        for (int t = 0; t < kThreads; ++t) write_buffer(w, t, tsc[t], calls[t]);
    }
    return w.out;
}

struct BenchLog {
    BenchLog() = default;
    BenchLog(const BenchLog&) = delete;
    BenchLog& operator=(const BenchLog&) = delete;
    // The synthesized log is removed with the static that holds it, at exit (an atexit handler
    // registered while the static is being made would run after its destruction).
    ~BenchLog() {
        std::error_code ec;
        if (made) std::filesystem::remove(path, ec);
    }
    std::vector<std::uint8_t> bytes;
    std::filesystem::path path;
    std::filesystem::path binary;  // XRAY_BENCH_BINARY: the real log's executable, for names
    bool made = false;             // path is our temporary file
};

const BenchLog& bench_log() {
    static BenchLog log;
    static const bool loaded = [] {
        if (const char* real = std::getenv("XRAY_BENCH_LOG")) {
            log.path = real;
            if (const char* binary = std::getenv("XRAY_BENCH_BINARY")) log.binary = binary;
            std::ifstream in(log.path, std::ios::binary);
            log.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            return true;
        }
        log.bytes = synthesize();
        log.path = std::filesystem::temp_directory_path() /
                   ("apcgate-xray-bench-" + std::to_string(::getpid()) + ".xray");
        log.made = true;
        std::ofstream out(log.path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(log.bytes.data()),
                  static_cast<std::streamsize>(log.bytes.size()));
        return true;
    }();
    (void)loaded;
    return log;
}

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

// A fresh .apc directory per iteration, as a user's conversion writes (a directory that holds
// an old capture costs more: its page cache is freed); removed afterwards.
class ScratchCapture {
  public:
    ScratchCapture()
        : dir_(std::filesystem::temp_directory_path() /
               ("apcgate-xray-bench-" + std::to_string(::getpid()) + ".apc")) {
        std::filesystem::remove_all(dir_);
    }
    ~ScratchCapture() { std::filesystem::remove_all(dir_); }
    ScratchCapture(const ScratchCapture&) = delete;
    ScratchCapture& operator=(const ScratchCapture&) = delete;
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  private:
    std::filesystem::path dir_;
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

// The conversion as `convert` runs it (cli_convert.cpp): the capture engine merging, encoding
// and handing the frames to `sink`, polled until the source ran out, then finished.
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

// One iteration's writing into a fresh .apc directory, made and removed outside the timing
// (removing frees the last one's page cache); false when the directory failed.
template <typename Write>
bool into_fresh_capture(benchmark::State& state, Write write) {
    state.PauseTiming();
    auto scratch = std::make_unique<ScratchCapture>();
    state.ResumeTiming();
    // As `convert` makes it.
    auto dir = daemon::ApcDirectory::create(scratch->dir(), false, daemon::Durability::Cached);
    if (!dir) {
        state.SkipWithError(dir.error().to_string().c_str());
        return false;
    }
    write(**dir);
    state.PauseTiming();
    const bool ok = static_cast<bool>((*dir)->status());
    if (!ok) state.SkipWithError((*dir)->status().error().to_string().c_str());
    dir->reset();
    scratch.reset();
    state.ResumeTiming();
    return ok;
}

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
