// What the Perf framing (`--framing perf`) spends on the same ring bytes perf_decode_bench
// decodes: one walk over the record headers (frame boundaries, LOST counting) and the packing of
// every word into PERF_DATA frames. Run both programs and compare items/s: forwarding must cost
// less than decoding (which does not even include the v6.8 encoding after it).
#include <benchmark/benchmark.h>

#include <vector>

#include "protocol/perf_framing/frame_writer.hpp"

namespace {

void put(std::vector<std::uint8_t>& b, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// The record streams of perf_decode_bench, byte for byte: sched_switch samples with a 64-byte
// payload, and cpu-clock samples with call stacks of `depth` frames.
std::vector<std::uint8_t> switch_stream(int n) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        const std::uint32_t prev = 100 + (i & 1);
        put(b, 9, 4);
        put(b, 0, 2);
        put(b, 8 + 8 + 8 + 8 + 8 + 4 + 64 + 4, 2);
        put(b, 2, 8);
        put(b, prev, 4);
        put(b, prev, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, static_cast<std::uint64_t>(i & 1), 8);
        put(b, 64, 4);
        for (int k = 0; k < 64; ++k) b.push_back(static_cast<std::uint8_t>(k == 32 ? 1 : 0));
        put(b, 0, 4);
    }
    return b;
}

std::vector<std::uint8_t> sample_stream(int n, int depth) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        put(b, 9, 4);
        put(b, 2, 2);
        put(b, static_cast<std::uint64_t>(8 + 48 + 8 + 8 * (depth + 1)), 2);
        put(b, 3, 8);
        put(b, 0x401000 + static_cast<std::uint64_t>(i % 512), 8);
        put(b, 100, 4);
        put(b, 100, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, 0, 8);
        put(b, 1'000'000, 8);
        put(b, static_cast<std::uint64_t>(depth + 1), 8);
        put(b, static_cast<std::uint64_t>(-512), 8);
        for (int d = 0; d < depth; ++d) put(b, 0x401000 + static_cast<std::uint64_t>(d * 64), 8);
    }
    return b;
}

// As PerfFramingCapture::forward_ring: walk the headers, cut frames of at most 800 KiB raw at
// record boundaries, pack each into a PERF_DATA body.
void forward(benchmark::State& state, const std::vector<std::uint8_t>& bytes, int records) {
    constexpr std::size_t kMaxRaw = 800u * 1024;
    std::vector<std::uint8_t> body;
    for (auto _ : state) {
        std::size_t start = 0, pos = 0, frames = 0;
        while (pos + 8 <= bytes.size()) {
            std::uint64_t head = 0;
            for (int i = 0; i < 8; ++i) head |= static_cast<std::uint64_t>(bytes[pos + i]) << (8 * i);
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
