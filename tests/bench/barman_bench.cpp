// Barman ingest throughput (MB/s of data store) on a large generated linear buffer shaped like
// the agent's real output (barman_bench_store.hpp). Three stages: block splitting + record
// parsing, the whole source (parse, map to model events, order them), and the same with the APC
// encoder behind it (what `convert` does, less the file writes). The issue names no reference
// decoder (Arm's own importer is inside Streamline), so the reference is BM_BarmanReadOnly:
// reading the same file with the same pread pattern and touching every byte, the ceiling any
// reader of this file has on this machine; barman_floor_bench.cpp gives the floor under any
// conversion of it.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <numeric>
#include <string>

#include "collectors/barman/barman_source.hpp"
#include "protocol/apc/encoder.hpp"
#include "tests/bench/barman_bench_store.hpp"

namespace apcgate::collectors::barman {
namespace {

using barman_bench::generated_store;

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
    std::uint64_t events = 0, output = 0;
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
        output = sink.bytes;
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
    state.counters["events"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
    if (encode) state.counters["output_bytes"] = static_cast<double>(output);
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
