// The floor under any conversion of the Barman bench store (barman_bench_store.hpp,
// docs/performance.md): one loop that does only what `convert` cannot skip for the store's
// records — read the record area with 1 MiB preads as BlockReader does, split the blocks, decode
// each record's fields, ticks to ns, hold the records back in the same reorder window the source
// keeps (the `cores + 1` most recent) and release them in time order, keep each core's previous
// PMU reads for the deltas, find a PC's image, and write the messages the capture holds for them
// (Block Counter values, Counter values, Backtraces with each core's first Cookie Name, Activity,
// Annotate, Idle) in their APC layouts into frames of 256 KiB handed to the same kind of
// FrameSink BM_BarmanSourceAndEncoder writes to. Everything else is left out: no check of the
// input (a linear, little-endian, 64-bit store with task ids and custom counters, as the bench
// store is; the header is read by the product's loader before the timing), no statistics, no
// counter plan (keys are numbered per core and slot), no model events, no encoder state, no
// separate pass for the time origin (the first record's time is the zero). It shares none of the
// product's reading, mapping or encoding code on purpose: it measures how fast this machine lets
// any design convert this store.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "collectors/barman/barman_source.hpp"
#include "protocol/apc/encoder.hpp"
#include "protocol/wire/fixed_load.hpp"
#include "tests/bench/barman_bench_store.hpp"

namespace apcgate::barman_bench {
namespace {

constexpr std::size_t kChunk = 1u << 20;
constexpr std::size_t kFrameCap = 256u << 10;
constexpr std::size_t kMaxMessage = 512;  // the longest message the floor writes, with room
constexpr std::uint32_t kMaxCores = 8;
constexpr std::uint32_t kMaxPmu = 8;
constexpr std::size_t kMaxText = 64;

// The inputs are little-endian, as the machines that write them.
std::uint32_t u32(const std::uint8_t* p) {
    return wire::load_u32(p, wire::Endian::Little);
}
std::uint64_t u64(const std::uint8_t* p) {
    return wire::load_u64(p, wire::Endian::Little);
}

// The protocol's packed integers (signed LEB128).
std::uint8_t* packed(std::int64_t v, std::uint8_t* p) {
    for (;;) {
        const auto byte = static_cast<std::uint8_t>(v & 0x7f);
        v >>= 7;
        if ((v == 0 && (byte & 0x40) == 0) || (v == -1 && (byte & 0x40) != 0)) {
            *p++ = byte;
            return p;
        }
        *p++ = byte | 0x80;
    }
}

// One decoded record, as the window holds it.
struct Rec {
    std::int64_t ns = 0;
    std::uint32_t type = 0;
    std::uint32_t core = 0;
    std::uint32_t task = 0;
    std::uint32_t a = 0;  // pmu count, custom counter, annotation channel, halt entered, reason
    std::uint64_t pc = 0;
    std::uint64_t value = 0;  // a custom counter's value; an annotation's colour
    std::uint32_t custom = 0;
    std::array<std::uint64_t, kMaxPmu> pmu{};
    std::array<std::uint32_t, 2> custom_id{};
    std::array<std::uint64_t, 2> custom_value{};
    std::array<char, kMaxText> text{};
    std::uint32_t text_size = 0;
};

struct Image {
    std::uint64_t base, length, offset;
    std::int32_t cookie;
    std::string name;
};

// What the header says, read before the timing.
struct Setup {
    std::string path;
    std::uint64_t area = 0;  // file offset of logical byte 0
    std::uint64_t length = 0;
    collectors::barman::ClockInfo clock;
    std::vector<Image> images;
    std::uint32_t cores = 0;
};

class Frame {
  public:
    Frame(apc::FrameType type, std::int32_t core, bool cored)
        : buf_(kFrameCap + kMaxMessage), type_(type), core_(core), cored_(cored) {
        reset();
    }
    std::uint8_t*& at() { return p_; }
    // Sends the frame when it is near its cap.
    void done(apc::FrameSink& sink) {
        if (static_cast<std::size_t>(p_ - buf_.data()) > kFrameCap - kMaxMessage) send(sink);
    }
    void send(apc::FrameSink& sink) {
        if (p_ - buf_.data() > header_) sink.frame({buf_.data(), p_});
        reset();
    }
    bool fresh() const { return p_ - buf_.data() == header_; }

  private:
    void reset() {
        p_ = packed(static_cast<std::int32_t>(type_), buf_.data());
        if (cored_) p_ = packed(core_, p_);
        header_ = p_ - buf_.data();
    }
    std::vector<std::uint8_t> buf_;
    apc::FrameType type_;
    std::int32_t core_;
    bool cored_;
    std::uint8_t* p_ = nullptr;
    std::ptrdiff_t header_ = 0;
};

class Writer {
  public:
    Writer(const Setup& s, apc::FrameSink& sink) : setup_(s), sink_(sink) {
        for (std::uint32_t c = 0; c < kMaxCores; ++c) {
            backtrace_.emplace_back(apc::FrameType::Backtrace, c, true);
            name_.emplace_back(apc::FrameType::Name, c, true);
        }
    }
    void write(const Rec& r);
    void finish() {
        for (Frame* f : {&block_, &counter_, &annotate_, &idle_, &activity_}) f->send(sink_);
        for (auto& f : backtrace_) f.send(sink_);
        for (auto& f : name_) f.send(sink_);
    }

  private:
    void sample(const Rec& r);
    void custom(const Rec& r, std::uint32_t series, std::uint64_t value);
    void backtrace(const Rec& r);
    void annotation(const Rec& r);

    const Setup& setup_;
    apc::FrameSink& sink_;
    Frame block_{apc::FrameType::BlockCounter, 0, true};
    Frame counter_{apc::FrameType::Counter, 0, false};
    Frame annotate_{apc::FrameType::Annotate, 0, false};
    Frame idle_{apc::FrameType::Idle, 0, false};
    Frame activity_{apc::FrameType::Activity, 0, false};
    std::vector<Frame> backtrace_, name_;
    std::array<std::array<std::uint64_t, kMaxPmu>, kMaxCores> last_{};
    std::array<std::uint32_t, kMaxCores> named_{};  // bit per cookie
    std::int64_t block_ts_ = -1;
    std::int32_t block_core_ = 0;
};

void Writer::sample(const Rec& r) {
    std::uint8_t* p = block_.at();
    if (block_.fresh() || r.ns != block_ts_) {
        *p++ = 0;
        p = packed(r.ns, p);
        block_ts_ = r.ns;
        block_core_ = 0;
    }
    if (static_cast<std::int32_t>(r.core) != block_core_) {
        *p++ = 2;
        p = packed(r.core, p);
        block_core_ = static_cast<std::int32_t>(r.core);
    }
    auto& last = last_[r.core];
    for (std::uint32_t i = 0; i < r.a; ++i) {
        const std::uint64_t v = r.pmu[i];
        const std::uint64_t delta = v >= last[i] ? v - last[i] : v;
        last[i] = v;
        p = packed(3 + r.core * kMaxPmu + i, p);
        p = packed(static_cast<std::int64_t>(delta), p);
    }
    block_.at() = p;
    block_.done(sink_);  // a sent frame starts the next block afresh: fresh() above
    if (r.type == 2) backtrace(r);
    for (std::uint32_t i = 0; i < r.custom; ++i) custom(r, r.custom_id[i], r.custom_value[i]);
}

void Writer::custom(const Rec& r, std::uint32_t series, std::uint64_t value) {
    std::uint8_t* p = counter_.at();
    p = packed(r.ns, p);
    p = packed(r.core, p);
    p = packed(3 + kMaxCores * kMaxPmu + series, p);
    counter_.at() = packed(static_cast<std::int64_t>(value), p);
    counter_.done(sink_);
}

void Writer::backtrace(const Rec& r) {
    std::int32_t cookie = -1;
    std::int64_t offset = static_cast<std::int64_t>(r.pc);
    for (const Image& i : setup_.images) {
        if (r.pc - i.base < i.length) {
            cookie = i.cookie;
            offset = static_cast<std::int64_t>(r.pc - i.base + i.offset);
            break;
        }
    }
    if (cookie >= 2 && (named_[r.core] & (1U << cookie)) == 0) {
        named_[r.core] |= 1U << cookie;
        Frame& n = name_[r.core];
        std::uint8_t* p = packed(1, n.at());
        p = packed(cookie, p);
        const std::string& name = setup_.images[static_cast<std::size_t>(cookie) - 2].name;
        p = packed(static_cast<std::int64_t>(name.size()), p);
        std::copy(name.begin(), name.end(), p);
        n.at() = p + name.size();
        n.done(sink_);
    }
    Frame& f = backtrace_[r.core];
    std::uint8_t* p = packed(r.ns, f.at());
    p = packed(cookie, p);
    p = packed(r.task, p);
    p = packed(r.task, p);
    p = packed(cookie, p);
    p = packed(offset, p);
    *p++ = 1;
    f.at() = p;
    f.done(sink_);
}

void Writer::annotation(const Rec& r) {
    std::uint8_t* p = packed(r.core, annotate_.at());
    p = packed(r.task, p);
    p = packed(r.ns, p);
    const std::uint32_t colour = r.value != 0 ? 4 : 0;
    p = packed(2 + 4 + 2 + colour + r.text_size, p);
    *p++ = 0x1C;
    *p++ = 0x06;
    std::memcpy(p, &r.a, 4);
    const auto size = static_cast<std::uint16_t>(colour + r.text_size);
    std::memcpy(p + 4, &size, 2);
    p += 6;
    if (colour != 0) {
        const std::uint32_t rgb = 0x1B | (static_cast<std::uint32_t>(r.value & 0xffffff) << 8);
        std::memcpy(p, &rgb, 4);
        p += 4;
    }
    std::memcpy(p, r.text.data(), r.text.size());
    annotate_.at() = p + r.text_size;
    annotate_.done(sink_);
}

void Writer::write(const Rec& r) {
    switch (r.type) {
        case 1:
        case 2:
            return sample(r);
        case 3: {
            std::uint8_t* p = packed(2, activity_.at());
            p = packed(r.ns, p);
            p = packed(r.core, p);
            p = packed(2, p);
            p = packed(1, p);
            p = packed(r.task, p);
            activity_.at() = packed(r.a == 0 ? 1 : 2, p);
            return activity_.done(sink_);
        }
        case 4:
            return custom(r, r.a, r.value);
        case 5:
            return annotation(r);
        case 6: {
            std::uint8_t* p = packed(r.a != 0 ? 0 : -1, idle_.at());
            p = packed(r.ns, p);
            idle_.at() = packed(r.core, p);
            return idle_.done(sink_);
        }
        default:
            return;
    }
}

// Decodes one record (a block's data, `n` bytes) into `r`.
void decode(const std::uint8_t* d, std::size_t n, Rec& r) {
    r.type = u32(d);
    r.core = u32(d + 4) % kMaxCores;
    r.task = u32(d + 16);
    const std::uint8_t* p = d + 20;
    switch (r.type) {
        case 1:
        case 2: {
            r.custom = std::min<std::uint32_t>(u32(p), 2);
            p += 4;
            if (r.type == 2) {
                r.pc = u64(p);
                p += 8;
            }
            r.a = static_cast<std::uint32_t>(std::min<std::size_t>(
                (n - static_cast<std::size_t>(p - d) - std::size_t{12} * r.custom) / 8, kMaxPmu));
            std::memcpy(r.pmu.data(), p, std::size_t{8} * r.a);
            p += std::size_t{8} * r.a;
            for (std::uint32_t i = 0; i < r.custom; ++i, p += 12) {
                r.custom_id[i] = u32(p);
                r.custom_value[i] = u64(p + 4);
            }
            return;
        }
        case 3:
            r.task = u32(d + 16);
            r.a = d[20];
            return;
        case 4:
            r.a = u32(p);
            r.value = u64(p + 4);
            return;
        case 5: {
            const std::uint64_t length = u64(p);
            r.a = u32(p + 8);
            r.value = u32(p + 16);
            const char* text = reinterpret_cast<const char*>(p + 21);  // NOLINT: bytes as text
            r.text_size = static_cast<std::uint32_t>(
                strnlen(text, std::min<std::uint64_t>(length, kMaxText)));
            std::memcpy(r.text.data(), text, std::min<std::uint64_t>(length, kMaxText));
            return;
        }
        case 6:
            r.a = d[16];
            return;
        default:
            return;
    }
}

// The reorder window: the `size` most recent records, sorted by time (stable); a record leaves
// when a later one pushes it out.
class Window {
  public:
    explicit Window(std::size_t size) : size_(size), pool_(size + 1) {
        for (auto& r : pool_) free_.push_back(&r);
    }
    Rec& slot() { return *free_.back(); }
    // Adds slot() to the window; returns the record to write, or nullptr.
    const Rec* add() {
        Rec* r = free_.back();
        free_.pop_back();
        std::size_t i = held_.size();
        held_.push_back(r);
        for (; i > 0 && held_[i - 1]->ns > r->ns; --i) held_[i] = held_[i - 1];
        held_[i] = r;
        if (held_.size() <= size_) return nullptr;
        Rec* out = held_.front();
        held_.erase(held_.begin());
        free_.push_back(out);
        return out;
    }
    template <typename F>
    void drain(F write) {
        for (Rec* r : held_) write(*r);
        held_.clear();
    }

  private:
    std::size_t size_;
    std::vector<Rec> pool_;
    std::vector<Rec*> free_, held_;
};

std::int64_t to_ns(const collectors::barman::ClockInfo& c, std::uint64_t ticks) {
    __extension__ typedef unsigned __int128 u128;
    return static_cast<std::int64_t>(static_cast<u128>(ticks - c.base) * c.multiplier / c.divisor);
}

// The whole floor: read, split, decode, order, write. Returns the bytes read.
std::uint64_t convert_floor(const Setup& s, apc::FrameSink& sink) {
    const int fd = ::open(s.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    std::vector<std::uint8_t> buf(kChunk + kChunk);
    Writer writer(s, sink);
    Window window(s.cores + 1);
    std::uint64_t read_at = 0, last_ticks = 0;
    std::int64_t zero = -1;
    std::size_t have = 0, pos = 0;
    for (;;) {
        if (have - pos < 8 || have - pos < 8 + (u64(&buf[pos]) & ~(1ULL << 63))) {
            std::memmove(buf.data(), buf.data() + pos, have - pos);
            have -= pos;
            pos = 0;
            const std::size_t want =
                static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, s.length - read_at));
            const ssize_t n = want == 0 ? 0
                                        : ::pread(fd, buf.data() + have, want,
                                                  static_cast<off_t>(s.area + read_at));
            if (n <= 0) break;
            have += static_cast<std::size_t>(n);
            read_at += static_cast<std::uint64_t>(n);
            continue;
        }
        const std::uint64_t raw = u64(&buf[pos]);
        const std::size_t length = raw & ~(1ULL << 63);
        const std::uint8_t* d = &buf[pos + 8];
        pos += 8 + length;
        if ((raw >> 63) != 0) continue;
        Rec& r = window.slot();
        std::uint64_t ticks = u64(d + 8);
        ticks = ticks == ~0ULL ? last_ticks : ticks;
        last_ticks = ticks;
        const std::int64_t ns = to_ns(s.clock, ticks);
        zero = zero < 0 ? ns : zero;
        r.ns = std::max<std::int64_t>(ns - zero, 0);
        decode(d, length, r);
        if (const Rec* out = window.add()) writer.write(*out);
    }
    window.drain([&](const Rec& r) { writer.write(r); });
    writer.finish();
    ::close(fd);
    return read_at;
}

Setup setup_of(const std::string& path) {
    Setup s;
    s.path = path;
    auto loaded = collectors::barman::BarmanSource::load(path);
    if (!loaded || loaded->geometry.circular) return s;
    s.area = loaded->geometry.area + loaded->geometry.start;
    s.length = loaded->geometry.data_length;
    s.clock = loaded->header.preamble.clock;
    s.cores = static_cast<std::uint32_t>(loaded->header.cores.size());
    std::int32_t cookie = 2;
    for (const auto& m : loaded->header.mmaps)
        s.images.push_back({m.base_address, m.length, m.image_offset, cookie++, m.image});
    return s;
}

class NullSink : public apc::FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes += body.size(); }
    std::uint64_t bytes = 0;
};

void BM_BarmanFusedFloor(benchmark::State& state) {
    const std::string& path = generated_store();
    const Setup setup = setup_of(path);
    if (setup.length == 0 || setup.cores > kMaxCores) {
        state.SkipWithError("not a store the floor reads");
        return;
    }
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        NullSink sink;
        if (convert_floor(setup, sink) != setup.length) state.SkipWithError("read failed");
        bytes = sink.bytes;
    }
    state.counters["output_bytes"] = static_cast<double>(bytes);
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}
BENCHMARK(BM_BarmanFusedFloor)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace apcgate::barman_bench
