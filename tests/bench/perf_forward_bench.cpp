// What the Perf framing (`--framing perf`) spends on the same ring bytes perf_decode_bench
// decodes: one walk over the record headers (frame boundaries, LOST counting) and the packing of
// every word into PERF_DATA frames. Run both programs and compare items/s: forwarding must cost
// less than decoding (which does not even include the v6.8 encoding after it).
#include <benchmark/benchmark.h>

#include <vector>

#include "perf_ring_streams.hpp"
#include "protocol/perf_framing/frame_writer.hpp"

namespace {

using apcgate::perf_bench::sample_stream;
using apcgate::perf_bench::switch_stream;

// As PerfFramingCapture::forward_ring: walk the headers, cut frames of at most 800 KiB raw at
// record boundaries, pack each into a PERF_DATA body.
void forward(benchmark::State& state, const std::vector<std::uint8_t>& bytes, int records) {
    constexpr std::size_t kMaxRaw = std::size_t{800} * 1024;
    std::vector<std::uint8_t> body;
    for (auto _ : state) {
        std::size_t start = 0, pos = 0, frames = 0;
        while (pos + 8 <= bytes.size()) {
            std::uint64_t head = 0;
            for (int i = 0; i < 8; ++i)
                head |= static_cast<std::uint64_t>(bytes[pos + i]) << (8 * i);
            const auto size = static_cast<std::size_t>(head >> 48);
            if (pos + size - start > kMaxRaw) {
                body.clear();
                apcgate::perf_framing::write_perf_data(
                    body, 0, std::span<const std::uint8_t>(bytes).subspan(start, pos - start));
                ++frames;
                start = pos;
            }
            pos += size;
        }
        body.clear();
        apcgate::perf_framing::write_perf_data(
            body, 0, std::span<const std::uint8_t>(bytes).subspan(start, pos - start));
        benchmark::DoNotOptimize(body.data());
        benchmark::DoNotOptimize(frames);
    }
    state.SetItemsProcessed(state.iterations() * records);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
}

void BM_SchedSwitchRecordsForwarded(benchmark::State& state) {
    forward(state, switch_stream(10000), 10000);
}
BENCHMARK(BM_SchedSwitchRecordsForwarded);

void BM_CallStackSamplesForwarded(benchmark::State& state) {
    forward(state, sample_stream(10000, static_cast<int>(state.range(0))), 10000);
}
BENCHMARK(BM_CallStackSamplesForwarded)->Arg(4)->Arg(32);

}  // namespace
