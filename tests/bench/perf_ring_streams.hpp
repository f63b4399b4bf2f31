// The perf benchmarks' shared input (perf_decode_bench.cpp, perf_forward_bench.cpp): ring-buffer
// record streams laid out as this kernel writes them, so that decoding and forwarding are timed
// on the same bytes. Sample ids 2 (sched_switch: identifier, tid, time, cpu, raw) and 3
// (cpu-clock: identifier, ip, tid, time, cpu, period, callchain).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace apcgate::perf_bench {

// Appends the low `n` bytes of `v`, little-endian.
inline void put(std::vector<std::uint8_t>& b, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// N sched_switch samples with a 64-byte payload, alternating between threads 100 ("ping") and
// 101 ("pong").
inline std::vector<std::uint8_t> switch_stream(int n) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        const std::uint32_t prev = 100 + (i & 1), next = 101 - (i & 1);
        std::vector<std::uint8_t> raw(64, 0);
        std::memcpy(raw.data() + 8, "ping", 4);
        std::memcpy(raw.data() + 24, &prev, 4);
        raw[32] = 1;  // prev_state S
        std::memcpy(raw.data() + 40, "pong", 4);
        std::memcpy(raw.data() + 56, &next, 4);
        put(b, 9, 4);
        put(b, 0, 2);
        put(b, 8 + 8 + 8 + 8 + 8 + 4 + 64 + 4, 2);
        put(b, 2, 8);  // identifier
        put(b, prev, 4);
        put(b, prev, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, static_cast<std::uint64_t>(i & 1), 8);
        put(b, 64, 4);
        b.insert(b.end(), raw.begin(), raw.end());
        put(b, 0, 4);  // padding to 8
    }
    return b;
}

// N cpu-clock samples of thread 100 with call stacks of `depth` frames.
inline std::vector<std::uint8_t> sample_stream(int n, int depth) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        put(b, 9, 4);
        put(b, 2, 2);  // user
        put(b, 8 + 48 + 8 + 8 * static_cast<std::uint64_t>(depth + 1), 2);
        put(b, 3, 8);
        put(b, 0x401000 + static_cast<std::uint64_t>(i % 512), 8);
        put(b, 100, 4);
        put(b, 100, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, 0, 8);
        put(b, 1'000'000, 8);
        put(b, static_cast<std::uint64_t>(depth) + 1, 8);
        put(b, static_cast<std::uint64_t>(-512), 8);
        for (int d = 0; d < depth; ++d) put(b, 0x401000 + static_cast<std::uint64_t>(d) * 64, 8);
    }
    return b;
}

}  // namespace apcgate::perf_bench
