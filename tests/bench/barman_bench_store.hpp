// The Barman benchmarks' shared input (barman_bench.cpp, barman_floor_bench.cpp): a large
// generated linear store shaped like the agent's real output: 4 Cortex-A53 cores with the cycle
// counter and 5 events, PC samples against two images, sampled and recorded custom counters,
// task switches, annotations and idle pairs (64-bit little-endian, task ids and custom counters
// on). BARMAN_BENCH_MB sets its size (default 64 MiB); it lives in this process's own temporary
// file, removed at exit, unless BARMAN_BENCH_STORE names a file to keep it in (made when it does
// not exist, read as it is when it does: convert_memory.sh converts it with `apcgate convert`).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "tests/barman/store_builder.hpp"

namespace apcgate::barman_bench {

inline std::uint64_t store_bytes() {
    const char* mb = std::getenv("BARMAN_BENCH_MB");
    const std::uint64_t n = mb != nullptr ? std::strtoull(mb, nullptr, 10) : 0;
    return (n > 0 ? n : 64) << 20;
}

inline const std::filesystem::path& generated_path() {
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

// Writes a store of `buffer_bytes` to `path`, a piece at a time: memory stays a few MiB whatever
// the size (convert_memory.sh makes 4 GiB ones), and the bytes are those StoreBuilder::linear()
// gives for the same records.
inline void write_store(const std::filesystem::path& path, std::uint64_t buffer_bytes) {
    barman_test::StoreConfig c;
    c.max_cores = 4;
    c.max_task_infos = 8;  // the tasks below: a clean header, so `convert` exits 0 on the store
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
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    auto write = [&out](const std::vector<std::uint8_t>& bytes) {
        out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT: bytes to a stream
                  static_cast<std::streamsize>(bytes.size()));
    };
    // The header's size does not depend on the record bytes it counts: a placeholder now, the
    // real one at the end.
    const std::vector<std::uint8_t> placeholder = b.linear_header(buffer_bytes, 0);
    write(placeholder);
    std::uint64_t ts = 1000, reads = 0, bytes = 0, used = 0;
    std::uint32_t task = 1;
    std::vector<std::uint8_t> piece;
    while (bytes < buffer_bytes - 4096) {
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
        if (ts % 8192 == 0) {  // about 140 KiB of records a piece
            piece.clear();
            used = b.drain_linear(piece, used, buffer_bytes);
            write(piece);
        }
    }
    piece.clear();
    used = b.drain_linear(piece, used, buffer_bytes);
    write(piece);
    piece.assign(std::size_t{1} << 20, 0);
    for (std::uint64_t left = buffer_bytes - used; left > 0;) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, piece.size()));
        out.write(reinterpret_cast<const char*>(piece.data()),  // NOLINT: bytes to a stream
                  static_cast<std::streamsize>(n));
        left -= n;
    }
    out.seekp(0);
    write(b.linear_header(buffer_bytes, used));
}

// The store both benchmarks read, generated once per process.
inline const std::string& generated_store() {
    static const std::string kPath = [] {
        if (const char* keep = std::getenv("BARMAN_BENCH_STORE"); keep != nullptr && *keep != 0) {
            if (!std::filesystem::exists(keep)) write_store(keep, store_bytes());
            return std::string(keep);
        }
        write_store(generated_path(), store_bytes());
        return generated_path().string();
    }();
    return kPath;
}

}  // namespace apcgate::barman_bench
