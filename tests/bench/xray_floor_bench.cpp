// The floor under any conversion of the XRay bench log on this machine (docs/performance.md): one
// loop that does only what `convert` cannot skip for the log's function records — decode each
// thread's buffers, merge the threads in time order, keep each thread's call depth, write every
// call's two Annotate messages (the bytes `convert` writes for them: core, tid, time, size, then
// 0x1C 0x06 channel length text) into 256 KiB frames — and hands the frames to the same .apc
// sink `convert` uses. Everything else is left out: no check of the input (an FDR version 5 log
// from a little-endian writer with at most four threads, as the bench log and the runtime's
// logs on x86-64 are; other records are skipped by their size), no matching of exits to their
// entries, no statistics, no counters, no model events, no encoder state, no arguments or event
// texts; the log is in memory already (`convert` maps it) and the names are looked up before the
// timing. It is not the product and shares none of its reading, merging or encoding code on
// purpose (only FunctionNames, for names of the real lengths): it measures how much of the
// 1 GB/s goal (65 ms for the 64.7 MB log) the machine leaves to a design, any design.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/xray/function_names.hpp"
#include "protocol/wire/fixed_load.hpp"
#include "tests/bench/xray_bench_log.hpp"

namespace apcgate::xray_bench {
namespace {

constexpr std::int64_t kEnd = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kBatch = 1024;
constexpr std::size_t kFrameCap = 256u << 10;
constexpr std::size_t kMaxMessage = 64;  // header (at most 23 bytes), 8 fixed, a name's 32
constexpr std::uint32_t kMaxDepth = 128;

// The inputs are little-endian, as the machines that write them.
std::uint32_t u32(const std::uint8_t* p) {
    return wire::load_u32(p, wire::Endian::Little);
}
std::uint64_t u64(const std::uint8_t* p) {
    return wire::load_u64(p, wire::Endian::Little);
}

struct Call {
    std::int64_t ns;
    std::uint32_t function;
    std::uint16_t cpu;
    std::uint8_t action;  // 0 entry, 1 exit, 2 tail exit, 3 entry with arguments
};

struct Thread {
    std::int32_t tid = 0;
    std::vector<std::span<const std::uint8_t>> buffers;  // each after its BufferExtents
};

// Buffers by thread: every buffer starts with BufferExtents (its size) and NewBuffer (the tid).
std::vector<Thread> index_threads(std::span<const std::uint8_t> log) {
    std::vector<Thread> threads;
    std::map<std::int32_t, std::size_t> by_tid;
    std::size_t pos = 32;
    while (pos + 32 <= log.size() && log[pos] == ((7 << 1) | 1)) {
        const std::size_t start = pos + 16;
        const std::size_t size = std::min<std::uint64_t>(u64(&log[pos + 1]), log.size() - start);
        const auto tid = static_cast<std::int32_t>(u32(&log[start + 1]));
        const auto [it, added] = by_tid.try_emplace(tid, threads.size());
        if (added) threads.push_back(Thread{tid, {}});
        threads[it->second].buffers.push_back(log.subspan(start, size));
        pos = start + size;
    }
    return threads;
}

// One thread's calls, kBatch at a time, each batch ending with a call at kEnd.
class Cursor {
  public:
    Cursor(const Thread& t, double ns_per_tick, std::uint64_t zero_tsc)
        : thread_(t), ns_per_tick_(ns_per_tick), zero_(zero_tsc) {}

    const Call* refill() {
        Call* out = calls_.data();
        Call* const full = out + kBatch;
        while (out < full) {
            if (p_ == end_) {
                if (next_ == thread_.buffers.size()) break;
                const auto b = thread_.buffers[next_++];
                p_ = b.data();
                end_ = b.data() + b.size();
            }
            std::uint64_t tsc = tsc_;
            const std::uint8_t* p = p_;
            while (out < full && end_ - p >= 8) {
                const std::uint32_t head = u32(p);
                if ((head & 1) == 0) {
                    tsc += u32(p + 4);
                    *out++ = Call{
                        static_cast<std::int64_t>(static_cast<double>(tsc - zero_) * ns_per_tick_),
                        head >> 4, cpu_, static_cast<std::uint8_t>((head >> 1) & 7)};
                    p += 8;
                    continue;
                }
                if (end_ - p < 16) break;
                const unsigned kind = (head & 0xff) >> 1;
                std::size_t skip = 16;
                if (kind == 2) {  // NewCPUId
                    std::uint16_t cpu;
                    std::memcpy(&cpu, p + 1, 2);
                    cpu_ = cpu;
                    tsc = u64(p + 3);
                } else if (kind == 3) {  // TSCWrap
                    tsc = u64(p + 1);
                } else if (kind == 5 || kind == 8) {  // custom, typed event: payload after
                    tsc += static_cast<std::int32_t>(u32(p + 5));
                    skip += u32(p + 1);
                }
                p += std::min<std::size_t>(skip, static_cast<std::size_t>(end_ - p));
            }
            p_ = end_ - p < 8 ? end_ : p;
            tsc_ = tsc;
        }
        out->ns = kEnd;
        return out == calls_.data() ? nullptr : calls_.data();
    }

  private:
    const Thread& thread_;
    double ns_per_tick_;
    std::uint64_t zero_;
    std::size_t next_ = 0;
    const std::uint8_t* p_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::uint64_t tsc_ = 0;
    std::uint16_t cpu_ = 0;
    std::array<Call, kBatch + 1> calls_{};
};

std::uint8_t* put_unsigned(std::uint64_t v, std::uint8_t* p) {
    while (v >= 64) {
        *p++ = static_cast<std::uint8_t>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(v);
    return p;
}

// A function's name as `convert --binary` gives it (cut at 32 bytes, the bench log's are
// shorter), padded so that one fixed-size copy writes it.
struct Name {
    std::array<char, 32> bytes{};
    std::uint8_t size = 0;
};
std::vector<Name> names_of(const BenchLog& log) {
    std::vector<Name> names(1);
    if (log.binary.empty()) return names;
    auto loaded = collectors::xray::FunctionNames::load(log.binary);
    if (!loaded) return names;
    for (std::uint32_t id = 1; id <= loaded->size(); ++id) {
        const std::string_view n = loaded->name(id);
        Name& name = names.emplace_back();
        name.size = static_cast<std::uint8_t>(std::min<std::size_t>(n.size(), 32));
        std::memcpy(name.bytes.data(), n.data(), name.size);
    }
    return names;
}

// The earliest TSC of the log's threads: the first NewCPUId of each thread's first buffer.
std::uint64_t zero_tsc(const std::vector<Thread>& threads) {
    std::uint64_t zero = std::numeric_limits<std::uint64_t>::max();
    for (const Thread& t : threads) {
        const auto b = t.buffers.front();
        for (std::size_t at = 0; at + 16 <= b.size() && at < std::size_t{16} * 5; at += 16) {
            if (b[at] == ((2 << 1) | 1)) {
                zero = std::min(zero, u64(&b[at + 3]));
                break;
            }
        }
    }
    return zero;
}

// The whole floor: decode, merge, keep depths, encode, write. Returns the bytes written.
std::uint64_t convert_floor(std::span<const std::uint8_t> log, const std::vector<Name>& names,
                            daemon::ApcDirectory& out) {
    const std::vector<Thread> threads = index_threads(log);
    if (threads.empty() || threads.size() > 4) return 0;
    const double ns_per_tick = 1e9 / static_cast<double>(u64(&log[8]));
    const std::uint64_t zero = zero_tsc(threads);
    std::vector<std::unique_ptr<Cursor>> cursors;
    cursors.reserve(threads.size());
    for (const Thread& t : threads)
        cursors.push_back(std::make_unique<Cursor>(t, ns_per_tick, zero));
    static const Call kAbsent{kEnd, 0, 0, 0};
    std::array<const Call*, 4> head{};
    std::array<std::uint32_t, 4> depth{};
    for (std::size_t i = 0; i < 4; ++i) {
        head[i] = i < cursors.size() ? cursors[i]->refill() : nullptr;
        if (head[i] == nullptr) head[i] = &kAbsent;
    }
    std::vector<std::uint8_t> frame(kFrameCap + kMaxMessage);
    std::uint8_t* const base = frame.data();
    base[0] = 6;  // Annotate
    std::uint8_t* p = base + 1;
    std::uint64_t bytes = 0;
    for (;;) {
        const bool right01 = head[1]->ns < head[0]->ns;
        const bool right23 = head[3]->ns < head[2]->ns;
        const std::int64_t t01 = right01 ? head[1]->ns : head[0]->ns;
        const std::int64_t t23 = right23 ? head[3]->ns : head[2]->ns;
        const bool right = t23 < t01;
        if ((right ? t23 : t01) == kEnd) break;
        const std::size_t at = right ? 2U + right23 : 0U + right01;
        const Call c = *head[at]++;
        if (head[at]->ns == kEnd) {
            const Call* next = cursors[at]->refill();
            head[at] = next != nullptr ? next : &kAbsent;
        }
        std::uint32_t& d = depth[at];
        const bool entry = c.action == 0 || c.action == 3;
        if (!entry && d == 0) continue;
        d = entry ? d + 1 : d - 1;
        const std::uint32_t channel = 1 + static_cast<std::uint32_t>(at) * kMaxDepth +
                                      std::min(entry ? d - 1 : d, kMaxDepth - 1);
        const Name& name = names[entry && c.function < names.size() ? c.function : 0];
        const std::size_t size = entry ? name.size : 0;
        p = put_unsigned(c.cpu, p);
        p = put_unsigned(static_cast<std::uint64_t>(threads[at].tid), p);
        p = put_unsigned(static_cast<std::uint64_t>(c.ns), p);
        p = put_unsigned(8 + size, p);
        const std::uint64_t fixed =
            0x1C | (0x06 << 8) | (std::uint64_t{channel} << 16) | (std::uint64_t{size} << 48);
        std::memcpy(p, &fixed, 8);
        p += 8;
        std::memcpy(p, name.bytes.data(), name.bytes.size());  // the frame has room past its cap
        p += size;
        if (static_cast<std::size_t>(p - base) > kFrameCap - kMaxMessage) {
            out.frame({base, p});
            bytes += static_cast<std::uint64_t>(p - base);
            p = base + 1;
        }
    }
    out.frame({base, p});
    bytes += static_cast<std::uint64_t>(p - base);
    out.finish();
    return bytes;
}

// The floor into a fresh .apc directory per iteration, as BM_XrayToApcDirectory writes it; the
// names are loaded before the timing.
void BM_XrayFusedFloor(benchmark::State& state) {
    const BenchLog& log = bench_log();
    const std::vector<Name> names = names_of(log);
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        if (!into_fresh_capture(state, [&](daemon::ApcDirectory& d) {
                bytes = convert_floor(log.bytes, names, d);
            }))
            return;
    }
    if (bytes == 0) state.SkipWithError("not a log the floor reads (FDR 5, at most 4 threads)");
    state.counters["output_bytes"] = static_cast<double>(bytes);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.bytes.size()));
}
BENCHMARK(BM_XrayFusedFloor)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

}  // namespace
}  // namespace apcgate::xray_bench
