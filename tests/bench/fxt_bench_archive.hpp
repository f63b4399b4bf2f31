// The FXT benchmarks' archive (fxt_bench.cpp, fxt_floor_bench.cpp), written by the test tree's
// FXT writer: a mix like a Fuchsia system trace (interned strings and threads, nested durations,
// complete events, counters, context switches and wakeups on 4 CPUs, logs), FXT_BENCH_MB MiB of
// it (default 256), kept at FXT_BENCH_FILE (default /tmp/apcgate_fxt_bench.fxt) so `dd` and
// `apcgate convert` can be timed on the same bytes. One provider, its records in time order.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "protocol/wire/byte_text.hpp"
#include "tests/fxt/fxt_writer.hpp"

namespace apcgate::fxt_test {

inline std::filesystem::path bench_file() {
    const char* env = std::getenv("FXT_BENCH_FILE");
    return env != nullptr ? env : "/tmp/apcgate_fxt_bench.fxt";
}

inline std::size_t bench_bytes() {
    const char* env = std::getenv("FXT_BENCH_MB");
    return (env != nullptr ? std::strtoull(env, nullptr, 10) : 256) << 20;
}

// Writes the archive in pieces, so the writer never holds more than a few MiB.
inline void write_archive(const std::filesystem::path& path, std::size_t target) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::size_t written = 0;
    auto flush = [&](FxtWriter& w) {
        const auto& b = w.bytes();
        out.write(wire::text_of(b).data(), static_cast<std::streamsize>(b.size()));
        written += b.size();
        w = FxtWriter();
    };
    FxtWriter w;
    w.magic();
    w.provider_info(1, "bench");
    w.provider_section(1);
    w.initialization(19'200'000);
    const char* names[] = {"gfx", "Frame", "Draw",  "Compose",     "Present",
                           "io",  "Read",  "value", "queue_depth", "Tick"};
    for (std::uint16_t i = 0; i < 10; ++i)
        w.string_record(static_cast<std::uint16_t>(i + 1), names[i]);
    for (std::uint8_t t = 1; t <= 8; ++t) {
        w.thread_record(t, 100, 1000 + t);
        w.kernel_object(1000 + t, 2, inl("worker"), {arg_koid(inl("process"), 100)});
    }
    std::uint64_t ts = 1'000'000;
    for (std::uint64_t i = 0; written < target; ++i) {
        const auto t = static_cast<std::uint8_t>(1 + i % 8);
        w.event(2, ts, thr(t), idx(1), idx(2), {arg_u32(idx(8), static_cast<std::uint32_t>(i))});
        w.event(2, ts + 10, thr(t), idx(1), idx(3));
        w.event(4, ts + 20, thr(t), idx(6), idx(7),
                {arg_i64(idx(9), static_cast<std::int64_t>(i % 7))}, ts + 60);
        w.event(3, ts + 80, thr(t), idx(1), idx(3));
        w.event(0, ts + 85, thr(t), idx(1), idx(10));
        if (i % 4 == 0)
            w.event(1, ts + 90, thr(t), idx(6), idx(9),
                    {arg_i64(idx(8), static_cast<std::int64_t>(i % 64))}, 1);
        w.event(3, ts + 95, thr(t), idx(1), idx(2));
        w.context_switch(static_cast<std::uint16_t>(i % 4), 3, ts + 97, 1000 + t,
                         1000 + (t % 8) + 1, {arg_i32(idx(8), 2)});
        w.thread_wakeup(static_cast<std::uint16_t>(i % 4), ts + 98, 1000 + t);
        if (i % 16 == 0) w.log(ts + 99, thr(t), "frame presented to the display controller");
        ts += 100;
        if (w.size() > (std::size_t{4} << 20)) flush(w);
    }
    flush(w);
}

inline const std::filesystem::path& archive() {
    static const std::filesystem::path kPath = [] {
        auto p = bench_file();
        std::error_code ec;
        const auto size = std::filesystem::file_size(p, ec);
        if (ec || size < bench_bytes()) write_archive(p, bench_bytes());
        return p;
    }();
    return kPath;
}

}  // namespace apcgate::fxt_test
