// The XRay benchmarks' shared parts (xray_bench.cpp, xray_floor_bench.cpp): the large FDR v5 log
// they read (64 MiB synthesized, or XRAY_BENCH_LOG=path for a real one with XRAY_BENCH_BINARY=its
// executable) and the fresh .apc directory each iteration writes into.
//
// The synthesized log looks like the runtime's: 4 threads, 64 KiB buffers of NewBuffer,
// WallClockTime, Pid, NewCPUId and then function records of a call tree 6 deep (one call in 16
// logging an argument), a custom event every 512 calls, interleaved in the file as the buffer
// queue hands them out.
#pragma once

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "protocol/wire/byte_text.hpp"
#include "tests/bench/fresh_capture.hpp"

namespace apcgate::xray_bench {

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
inline void write_buffer(LogWriter& w, int thread, std::uint64_t& tsc, std::uint32_t& calls) {
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
    while (w.out.size() - start + std::size_t{6} * (16 + 8 + 24) + 64 < kBufferBytes) {
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

inline std::vector<std::uint8_t> synthesize() {
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

inline const BenchLog& bench_log() {
    static BenchLog log;
    static const bool kLoaded = [] {
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
        out.write(wire::text_of(log.bytes).data(), static_cast<std::streamsize>(log.bytes.size()));
        return true;
    }();
    (void)kLoaded;
    return log;
}

using bench::into_fresh_capture;
using bench::ScratchCapture;

}  // namespace apcgate::xray_bench
