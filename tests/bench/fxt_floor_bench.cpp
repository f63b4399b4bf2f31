// The floor under any conversion of the FXT bench archive (fxt_bench_archive.hpp) on this
// machine: one loop that does only what `convert` cannot skip for the archive's records — split
// the records by their sizes, keep the string and thread tables, turn ticks into nanoseconds (the
// division by multiply and shift `convert` does), keep each thread's open spans and end the
// complete events in time order, and write the messages `convert` writes for them: a string
// annotation ("category: name arg=value", core, tid, time) on the thread's channel for its depth
// per span begin and an empty one per end, both for an instant or a log, a Counter message per
// counter value, an Activity Switch per context switch — into 256 KiB frames handed to the same
// .apc sink `convert` uses. Everything else is left out: no check of the input (a little-endian
// archive with one provider whose records are in time order, as the bench archive is; a record of a
// kind the archive does not use is skipped by its size), no UTF-8 cleaning, no statistics, no model
// events, no encoder state, no names of threads or channels; the archive is in memory already
// (`convert` maps it). It is not the product and shares none of its reading, mapping or encoding
// code on purpose: it measures how much the machine leaves to a design, any design.
#include <benchmark/benchmark.h>
#include <libdivide.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "protocol/wire/mapped_file.hpp"
#include "tests/bench/fresh_capture.hpp"
#include "tests/bench/fxt_bench_archive.hpp"

namespace apcgate::fxt_test {
namespace {

constexpr std::size_t kFrameCap = 256u << 10;
constexpr std::size_t kMaxMessage = 4096;  // room past the cap: headers and a text of this archive
constexpr std::int32_t kDepths = 64;       // channels per thread: the events row, then depths
constexpr std::uint64_t kNsPerSecond = 1'000'000'000;

std::uint64_t word(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
std::uint64_t bits(std::uint64_t w, unsigned lo, unsigned hi) {
    return (w >> lo) & ((std::uint64_t{1} << (hi - lo + 1)) - 1);
}

std::uint8_t* put_unsigned(std::uint64_t v, std::uint8_t* p) {
    while (v >= 64) {
        *p++ = static_cast<std::uint8_t>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(v);
    return p;
}

// One frame being filled, of one type; sent once it nears its cap.
class Frame {
  public:
    Frame(std::uint8_t type, daemon::ApcDirectory& out) : buf_(kFrameCap + kMaxMessage), out_(out) {
        buf_[0] = type;
        p = buf_.data() + 1;
    }
    void done() {
        if (static_cast<std::size_t>(p - buf_.data()) > kFrameCap) send();
    }
    void send() {
        if (p == buf_.data() + 1) return;
        out_.frame({buf_.data(), p});
        p = buf_.data() + 1;
    }
    std::uint8_t* p;

  private:
    std::vector<std::uint8_t> buf_;
    daemon::ApcDirectory& out_;
};

struct Span {
    std::int64_t end;  // a complete event's end; -1 for a begin
    std::int32_t depth;
    std::uint32_t serial;
};

struct Thread {
    std::uint64_t koid = 0;
    std::vector<Span> open;  // outermost first
};

struct PendingEnd {
    std::int64_t end;
    std::uint32_t serial;
    std::uint32_t thread;
    bool operator>(const PendingEnd& o) const {
        return end != o.end ? end > o.end : serial > o.serial;
    }
};

class Floor {
  public:
    explicit Floor(daemon::ApcDirectory& out)
        : annotate_(6, out), counter_(4, out), activity_(13, out) {}

    void run(std::span<const std::uint8_t> in) {
        const std::uint8_t* p = in.data();
        const std::uint8_t* const end = in.data() + in.size();
        while (end - p >= 8) {
            const std::uint64_t h = word(p);
            const std::size_t words =
                (h & 15) == 15 ? bits(h, 4, 35) : static_cast<std::size_t>(bits(h, 4, 15));
            if (words == 0 || words > static_cast<std::size_t>(end - p) / 8) break;
            record(h, p + 8);
            p += words * 8;
        }
        flush(INT64_MAX);
        annotate_.send();
        counter_.send();
        activity_.send();
    }

  private:
    std::int64_t ns(std::uint64_t ticks) const {
        return static_cast<std::int64_t>(
            libdivide::libdivide_u64_do(ticks * kNsPerSecond, &per_second_));
    }
    std::string_view stream(const std::uint8_t*& q, std::size_t n) {
        std::string_view s(reinterpret_cast<const char*>(q), n);  // NOLINT: text bytes
        q += (n + 7) & ~std::size_t{7};
        return s;
    }
    std::string_view string_ref(std::uint64_t ref, const std::uint8_t*& q) {
        if ((ref & 0x8000) != 0) return stream(q, ref & 0x7fff);
        return strings_[ref];
    }
    std::uint32_t thread_ref(std::uint64_t ref, const std::uint8_t*& q) {
        std::uint64_t koid;
        if (ref == 0) {
            koid = word(q + 8);
            q += 16;
        } else {
            koid = thread_koids_[ref];
        }
        return thread_index(koid);
    }
    std::uint32_t thread_index(std::uint64_t koid) {
        for (std::uint32_t i = 0; i < threads_.size(); ++i)
            if (threads_[i].koid == koid) return i;
        threads_.push_back(Thread{koid, {}});
        return static_cast<std::uint32_t>(threads_.size() - 1);
    }

    void annotation(std::int64_t ts, std::uint32_t thread, std::int32_t depth, const char* text,
                    std::size_t size) {
        std::uint8_t* p = annotate_.p;
        p = put_unsigned(0, p);
        p = put_unsigned(threads_[thread].koid, p);
        p = put_unsigned(static_cast<std::uint64_t>(ts), p);
        p = put_unsigned(8 + size, p);
        const auto channel = static_cast<std::uint32_t>(1 + thread * kDepths + depth + 1);
        const std::uint64_t fixed =
            0x1C | (0x06 << 8) | (std::uint64_t{channel} << 16) | (std::uint64_t{size} << 48);
        std::memcpy(p, &fixed, 8);
        std::memcpy(p + 8, text, size);
        annotate_.p = p + 8 + size;
        annotate_.done();
    }

    void flush(std::int64_t limit) {
        while (!pending_.empty() && pending_.front().end <= limit) {
            std::pop_heap(pending_.begin(), pending_.end(), std::greater<>{});
            const PendingEnd e = pending_.back();
            pending_.pop_back();
            auto& open = threads_[e.thread].open;
            for (auto it = open.begin(); it != open.end(); ++it) {
                if (it->serial != e.serial) continue;
                annotation(e.end, e.thread, it->depth, nullptr, 0);
                open.erase(it);
                break;
            }
        }
    }

    // "category:name arg=value…" into text_; its size.
    std::size_t event_text(std::string_view category, std::string_view name, unsigned args,
                           const std::uint8_t*& q) {
        char* t = text_.data();
        std::memcpy(t, category.data(), category.size());
        t += category.size();
        *t++ = ':';
        std::memcpy(t, name.data(), name.size());
        t += name.size();
        for (unsigned i = 0; i < args; ++i) {
            const std::uint64_t a = word(q);
            const std::uint8_t* v = q + 8;
            const std::string_view n = string_ref(bits(a, 16, 31), v);
            *t++ = ' ';
            std::memcpy(t, n.data(), n.size());
            t += n.size();
            *t++ = '=';
            char* const stop = text_.data() + text_.size();
            switch (a & 15) {
                case 1:
                    t = std::to_chars(t, stop, static_cast<std::int32_t>(a >> 32)).ptr;
                    break;
                case 2:
                    t = std::to_chars(t, stop, static_cast<std::uint32_t>(a >> 32)).ptr;
                    break;
                case 3:
                    t = std::to_chars(t, stop, static_cast<std::int64_t>(word(v))).ptr;
                    break;
                case 4:
                    t = std::to_chars(t, stop, word(v)).ptr;
                    break;
                default:
                    break;
            }
            q += bits(a, 4, 15) * 8;
        }
        return static_cast<std::size_t>(t - text_.data());
    }

    void open_span(std::int64_t ts, std::uint32_t thread, std::int64_t end, std::size_t size) {
        auto& open = threads_[thread].open;
        const Span s{end, open.empty() ? 0 : open.back().depth + 1, serial_++};
        open.push_back(s);
        annotation(ts, thread, s.depth, text_.data(), size);
        if (end >= 0) {
            pending_.push_back({std::max(end, ts), s.serial, thread});
            std::push_heap(pending_.begin(), pending_.end(), std::greater<>{});
        }
    }

    void close_span(std::int64_t ts, std::uint32_t thread) {
        auto& open = threads_[thread].open;
        for (auto it = open.rbegin(); it != open.rend(); ++it) {
            if (it->end >= 0) continue;
            annotation(ts, thread, it->depth, nullptr, 0);
            open.erase(std::next(it).base());
            return;
        }
    }

    void event(std::uint64_t h, const std::uint8_t* q) {
        const unsigned type = bits(h, 16, 19);
        const auto args = static_cast<unsigned>(bits(h, 20, 23));
        const std::int64_t ts = ns(word(q));
        q += 8;
        flush(ts);
        const std::uint32_t thread = thread_ref(bits(h, 24, 31), q);
        const std::string_view category = string_ref(bits(h, 32, 47), q);
        const std::string_view name = string_ref(bits(h, 48, 63), q);
        switch (type) {
            case 0: {  // instant: a zero-length span on the events row
                const std::size_t size = event_text(category, name, args, q);
                annotation(ts, thread, -1, text_.data(), size);
                annotation(ts, thread, -1, nullptr, 0);
                break;
            }
            case 1:  // counter: a value per argument
                for (unsigned i = 0; i < args; ++i) {
                    const std::uint64_t a = word(q);
                    std::uint8_t* p = counter_.p;
                    p = put_unsigned(static_cast<std::uint64_t>(ts), p);
                    p = put_unsigned(0, p);
                    p = put_unsigned(1 + i, p);
                    p = put_unsigned(word(q + 8), p);
                    counter_.p = p;
                    counter_.done();
                    q += bits(a, 4, 15) * 8;
                }
                break;
            case 2:
                open_span(ts, thread, -1, event_text(category, name, args, q));
                break;
            case 3:
                close_span(ts, thread);
                break;
            case 4: {
                const std::size_t size = event_text(category, name, args, q);
                open_span(ts, thread, ns(word(q)), size);
                break;
            }
            default:
                break;
        }
    }

    void record(std::uint64_t h, const std::uint8_t* q) {
        switch (h & 15) {
            case 1:  // initialization
                per_second_ = libdivide::libdivide_u64_gen(word(q));
                break;
            case 2:  // string
                strings_[bits(h, 16, 30)] =
                    std::string_view(reinterpret_cast<const char*>(q), bits(h, 32, 46));  // NOLINT
                break;
            case 3:  // thread
                thread_koids_[bits(h, 16, 23)] = word(q + 8);
                break;
            case 4:
                event(h, q);
                break;
            case 8: {
                if (bits(h, 60, 63) != 1) break;  // a wakeup: nothing to show
                const std::int64_t ts = ns(word(q));
                flush(ts);
                const unsigned state = bits(h, 36, 39);
                std::uint8_t* p = activity_.p;
                p = put_unsigned(2, p);
                p = put_unsigned(static_cast<std::uint64_t>(ts), p);
                p = put_unsigned(bits(h, 20, 35), p);
                p = put_unsigned(1, p);  // the activity counter's key
                p = put_unsigned(1, p);
                p = put_unsigned(word(q + 16), p);
                p = put_unsigned(state <= 1 ? 1 : 0, p);
                activity_.p = p;
                activity_.done();
                break;
            }
            case 9: {  // log: a zero-length span on the events row
                const std::int64_t ts = ns(word(q));
                q += 8;
                flush(ts);
                const std::uint32_t thread = thread_ref(bits(h, 32, 39), q);
                const std::string_view message = stream(q, bits(h, 16, 30));
                annotation(ts, thread, -1, message.data(), message.size());
                annotation(ts, thread, -1, nullptr, 0);
                break;
            }
            default:
                break;
        }
    }

    Frame annotate_;
    Frame counter_;
    Frame activity_;
    libdivide::libdivide_u64_t per_second_ = libdivide::libdivide_u64_gen(kNsPerSecond);
    std::array<std::string_view, 32768> strings_{};
    std::array<std::uint64_t, 256> thread_koids_{};
    std::vector<Thread> threads_;
    std::vector<PendingEnd> pending_;
    std::uint32_t serial_ = 0;
    std::array<char, kMaxMessage / 2> text_{};
};

// The floor into a fresh .apc directory per iteration, as BM_FxtToApcDirectory writes it.
void BM_FxtFusedFloor(benchmark::State& state) {
    auto input = wire::MappedFile::open(archive());
    if (!input) {
        state.SkipWithError("cannot open the archive");
        return;
    }
    const auto bytes = input->bytes();
    std::uint64_t written = 0;
    for (auto _ : state) {
        if (!bench::into_fresh_capture(state, [&](daemon::ApcDirectory& d) {
                Floor(d).run(bytes);
                d.finish();
                written = d.bytes_written();
            }))
            return;
    }
    state.counters["output_bytes"] = static_cast<double>(written);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_FxtFusedFloor)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
}  // namespace apcgate::fxt_test
