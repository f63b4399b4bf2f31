// Writer for model::SampleRun: many counter values and PC samples in one event
// (sample_run.hpp). The messages are exactly those of the equivalent single events, in run
// order: a counter value goes through the CounterSample writers (Counter frame, or the Block
// Counter state machine of encode_counters.cpp), a PC sample through the Backtrace writer.
// Block Counter values are most of a sampler's messages, so they have a loop of their own: the
// Block Counter frame is grown once for the values that surely fit and each value is written
// straight into it, with the same state (timestamp clamp, block start, core and pid keys) the
// general writer keeps. A value that may not fit goes through the general writer, which sends
// the frame, moves the open block to the next one or splits it: that logic stays in one place.
#include <algorithm>

#include "protocol/apc/encoder_impl.hpp"
#include "protocol/wire/type_index.hpp"

namespace apcgate::apc {

using detail::OpenFrame;

namespace {
constexpr std::size_t kCounterSampleIndex = wire::kTypeIndex<model::CounterSample, model::Event>;
constexpr std::size_t kBacktraceIndex = wire::kTypeIndex<model::Backtrace, model::Event>;

// The longest Block Counter value: [0][ts] [2][core] [1][pid] [key][value], packed.
constexpr std::size_t kMaxBlockValue = 1 + 10 + 1 + 5 + 1 + 5 + 5 + 10;
// The longest PC sample's Backtrace: ts, exec cookie, pid, tid, cookie, offset, end.
constexpr std::size_t kMaxPc = 10 + 5 + 5 + 5 + 5 + 10 + 1;
// The longest Counter frame message: ts, core, key, value.
constexpr std::size_t kMaxCounter = 10 + 5 + 5 + 10;

// encode_packed64's bytes with a shorter loop for values >= 0 (times, keys, cores and most
// counter values), as encode_spans.cpp writes them.
inline std::uint8_t* put(std::int64_t v, std::uint8_t* p) {
    if (v < 0) return p + wire::encode_packed64(v, p);
    auto u = static_cast<std::uint64_t>(v);
    while (u >= 64) {
        *p++ = static_cast<std::uint8_t>((u & 0x7f) | 0x80);
        u >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(u);
    return p;
}
}  // namespace

// What write_backtrace() writes for the one-frame Backtrace a PC sample stands for, without its
// general frame loop: one frame always fits an empty frame (cap >= kMinFrameBytes).
void Encoder::Impl::write_pc(const model::Sample& s) {
    // The core's Backtrace frame straight from its slot once it exists (cored() searches the
    // frame types first, once for every PC sample).
    constexpr std::size_t kBacktraceSlot = 2;
    static_assert(kCoredTypes[kBacktraceSlot] == FrameType::Backtrace);
    std::vector<OpenFrame>& frames = dense[kBacktraceSlot];
    OpenFrame& f = s.core >= 0 && static_cast<std::size_t>(s.core) < frames.size()
                       ? frames[static_cast<std::size_t>(s.core)]
                       : cored(FrameType::Backtrace, s.core);
    // The seed reserves cookie 1 for End of Message: written as -1 and counted (as there).
    if (s.cookie == 1) ++enc->stats_.counts[EncoderStat::TruncatedBacktraces];
    const std::int32_t cookie = s.cookie == 1 ? -1 : s.cookie;
    const std::int32_t pid = s.pid;
    const std::int32_t exec_cookie = s.cookie;  // the exec cookie is written as given
    const std::int64_t offset = s.value;
    const model::Nanos ts = order(f, s.ts);
    put_message<kMaxPc>(f, [&](std::uint8_t* p) {
        p = put(ts, p);
        p = put(exec_cookie, p);
        p = put(pid, p);
        p = put(pid, p);
        p = put(cookie, p);
        p = put(offset, p);
        *p++ = 1;  // End of Message
        return p;
    });
}

// write_counter() with the message built in place.
void Encoder::Impl::write_counter_value(const model::Sample& s) {
    const model::Nanos ts = order(counter, s.ts);
    put_message<kMaxCounter>(counter, [&](std::uint8_t* p) {
        p = put(ts, p);
        p = put(s.core, p);
        p = put(s.key, p);
        return put(s.value, p);
    });
}

void Encoder::Impl::add_samples(const model::SampleRun& run, std::size_t n) {
    const model::Sample* s = run.samples.data() + run.first;
    const model::Sample* const end = s + n;
    const std::uint8_t* const kinds = delivery_by_key.data();
    const std::size_t key_end = delivery_by_key.size();
    constexpr auto kBlock = static_cast<std::uint8_t>(static_cast<int>(model::Delivery::Block) + 1);
    std::uint64_t values = 0, backtraces = 0, unknown = 0, clamped = 0;
    OpenFrame& b = block;
    // The Block Counter frame's bytes [0, written) are its content; [written, grown) is room the
    // loop writes values into. Nothing else touches the frame during the loop but the general
    // writer, which gets it cut back to its content first.
    // The room is the rest of the frame up to its cap (resize() does not zero it: FrameBytes).
    std::size_t written = b.body.size();
    std::size_t grown = written;
    for (; s != end; ++s) {
        if (s->key == model::kPcSampleKey) {
            write_pc(*s);
            ++backtraces;
            continue;
        }
        const std::uint8_t kind =
            static_cast<std::uint32_t>(s->key) < key_end ? kinds[s->key] : kNoCounter;
        if (kind == kNoCounter) {
            ++unknown;
            continue;
        }
        ++values;
        if (kind != kBlock) {
            write_counter_value(*s);
            continue;
        }
        if (written + kMaxBlockValue > grown) {
            grown = std::max(grown, cap);
            b.body.resize(grown);
        }
        if (written + kMaxBlockValue > grown) {
            // May not fit: the general writer decides, on the frame as it is.
            b.body.resize(written);
            add_block(s->ts, s->core, s->key, s->value, s->pid);
            written = b.body.size();
            grown = written;
            continue;
        }
        // What add_block() does for a value that fits: order(), then the block's keys.
        model::Nanos ts = s->ts;
        if (ts < b.last_ts) {
            ++clamped;
            ts = b.last_ts;
        }
        b.last_ts = ts;
        const std::int32_t pid = s->pid > 0 ? s->pid : 0;  // the seed's pid 0: "no pid"
        std::uint8_t* const start = b.body.data() + written;
        std::uint8_t* p = start;
        std::int32_t core = b.block_core;
        std::int32_t cur_pid = b.block_pid;
        if (!b.in_block || ts != b.block_ts) {
            *p++ = 0;
            p = put(ts, p);
            core = b.core;  // a timestamp resets the core to the header's and the pid to none
            cur_pid = 0;
            b.block_start = written;
            b.in_block = true;
            b.block_ts = ts;
        }
        if (s->core != core) {
            *p++ = 2;
            p = put(s->core, p);
        }
        if (pid != cur_pid) {
            *p++ = 1;
            p = put(pid, p);
        }
        p = put(s->key, p);
        p = put(s->value, p);
        b.block_core = s->core;
        b.block_pid = pid;
        written += static_cast<std::size_t>(p - start);
    }
    b.body.resize(written);
    enc->stats_.counts[EncoderStat::OutOfOrder] += clamped;
    enc->stats_.counts[EncoderStat::UnknownKey] += unknown;
    enc->stats_.messages[kCounterSampleIndex] += values;
    enc->stats_.messages[kBacktraceIndex] += backtraces;
}

}  // namespace apcgate::apc
