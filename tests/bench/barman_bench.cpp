// Barman ingest throughput (MB/s of data store) on a large generated linear buffer shaped like
// the agent's real output: 4 Cortex-A53 cores with the cycle counter and 5 events, PC samples
// against two images, sampled and recorded custom counters, task switches, annotations and idle
// pairs. Three stages: block splitting + record parsing, the whole source (parse, map to model
// events, order them), and the same with the APC encoder behind it (what `convert` does, less
// the file writes). The issue names no reference decoder (Arm's own importer is inside
// Streamline), so the reference is BM_BarmanReadOnly: reading the same file with the same pread
// pattern and touching every byte, the ceiling any reader of this file has on this machine.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <system_error>

#include "collectors/barman/barman_source.hpp"
#include "protocol/apc/encoder.hpp"
#include "tests/barman/store_builder.hpp"

namespace apcgate::collectors::barman {
namespace {

constexpr std::uint64_t kBufferBytes = 64u << 20;

// The generated store lives in this process's own temporary file, removed at exit.
const std::filesystem::path& generated_path() {
    struct File {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() /
            ("apcgate_barman_bench_" + std::to_string(::getpid()) + ".raw");
        ~File() {
            std::error_code ec;
            std::filesystem::remove(path, ec);
        }
    };
    static const File kFile;
    return kFile.path;
}

const std::string& generated_store() {
    static const std::string kPath = [] {
        barman_test::StoreConfig c;
        c.max_cores = 4;
        c.max_pmu_counters = 8;
        c.custom_series = 2;
        barman_test::StoreBuilder b(c);
        for (std::uint32_t core = 0; core < 4; ++core)
            b.core(core, 0x410fd034, {0xffffffffU, 0x08, 0x03, 0x04, 0x10, 0x12});
        for (std::uint32_t t = 1; t <= 8; ++t) b.task(t, "task" + std::to_string(t));
        b.mmap(1, 0x400000, 0x100000, 0, "app.axf");
        b.mmap(2, 0x800000, 0x100000, 0x1000, "lib.axf");
        b.chart("Queue", 1, 2, 0);
        b.series(0, "depth", "items", 0xffffffffU, 1.0, 3, 2, 0);
        b.series(0, "drops", "", 0xffffffffU, 1.0, 1, 1, 1);
        std::uint64_t ts = 1000, reads = 0, bytes = 0;
        std::uint32_t task = 1;
        while (bytes < kBufferBytes - 4096) {
            for (std::uint32_t core = 0; core < 4; ++core) {
                reads += 1000;
                b.sample(core, ts, task, 0x400000 + (reads % 0x100000),
                         {reads, reads / 2, reads / 3, reads / 4, reads / 5, reads / 6},
                         {{1, reads % 7}});
                bytes += 8 + 96;
                b.custom(core, ts + 1, task, 0, reads % 100);
                bytes += 8 + 32;
            }
            if (ts % 64 == 0) {
                task = task % 8 + 1;
                b.task_switch(ts % 4, ts + 2, task, static_cast<std::uint8_t>(ts % 2));
                b.annotation(ts % 4, ts + 3, task, 0, 1, 0, 0x1bff0000, "work item");
                b.halt(ts % 4, ts + 4, true);
                b.halt(ts % 4, ts + 5, false);
                bytes += 32 + 64 + 2 * 32;
            }
            ts += 8;
        }
        const auto file = b.linear(kBufferBytes);
        std::ofstream(generated_path(), std::ios::binary)
            .write(reinterpret_cast<const char*>(file.data()),  // NOLINT: bytes to a stream
                   static_cast<std::streamsize>(file.size()));
        return generated_path().string();
    }();
    return kPath;
}

// The reference: the bytes alone, read as BlockReader reads them (1 MiB preads) and summed so
// that every byte is touched once.
void BM_BarmanReadOnly(benchmark::State& state) {
    const std::string& path = generated_store();
    for (auto _ : state) {
        auto file = DumpFile::open(path);
        if (!file) state.SkipWithError(file.error().to_string().c_str());
        std::vector<std::uint8_t> chunk(BlockReader::kDefaultChunk);
        std::uint64_t sum = 0;
        for (std::uint64_t at = 0; at < file->size(); at += chunk.size()) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), file->size() - at));
            if (!file->read_at(at, std::span(chunk).first(n))) state.SkipWithError("read failed");
            sum =
                std::accumulate(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n), sum);
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}

void BM_BarmanParse(benchmark::State& state) {
    const std::string& path = generated_store();
    std::uint64_t records = 0;
    for (auto _ : state) {
        auto loaded = BarmanSource::load(path);
        if (!loaded) state.SkipWithError(loaded.error().to_string().c_str());
        BlockReader reader(loaded->file, loaded->geometry, loaded->header.preamble.abi);
        RecordParser parser(loaded->header);
        Block b;
        while (reader.next(b) == BlockReader::Step::Block) {
            auto r = parser.parse(b.data, b.data_file_offset);
            benchmark::DoNotOptimize(r);
            ++records;
        }
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
    state.counters["records"] =
        benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
}

class NullSink : public apc::FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes += body.size(); }
    std::uint64_t bytes = 0;
};

void run_source(benchmark::State& state, bool encode) {
    const std::string& path = generated_store();
    std::uint64_t events = 0;
    for (auto _ : state) {
        auto source = BarmanSource::open({path, {}});
        if (!source) state.SkipWithError(source.error().to_string().c_str());
        model::CounterCatalog catalog;
        (*source)->declare(catalog);
        model::Configuration config;
        for (const auto& c : catalog.counters())
            config.counters.push_back({c.counter, c.event, {}, {}});
        const auto counters = model::CaptureCounters::assign(catalog, config);
        model::CaptureSettings settings;
        NullSink sink;
        apc::Encoder encoder(counters, sink);
        encoder.summary({});
        (void)(*source)->start({settings, counters, (*source)->time_origin()});
        std::vector<model::Event> out;
        for (;;) {
            out.clear();
            const auto r = (*source)->poll(0, out);
            events += out.size();
            if (encode) {
                for (const auto& e : out) encoder.add(e);
                encoder.flush();
            }
            if (r.finished) break;
        }
        benchmark::DoNotOptimize(sink.bytes);
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
    state.counters["events"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

void BM_BarmanSource(benchmark::State& state) {
    run_source(state, false);
}
void BM_BarmanSourceAndEncoder(benchmark::State& state) {
    run_source(state, true);
}

BENCHMARK(BM_BarmanReadOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarmanParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarmanSource)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarmanSourceAndEncoder)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace apcgate::collectors::barman
