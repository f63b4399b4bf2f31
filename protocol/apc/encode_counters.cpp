// Writers for counter values (gator-protocol-v6.8.txt, "Counter Frame Messages" and "Block
// Counter Frame Messages"). A key's frame kind is its catalog Delivery, never a mix.
#include "protocol/apc/encoder_impl.hpp"

namespace apcgate::apc {

using detail::MessageBuf;
using detail::OpenFrame;

bool Encoder::Impl::add(const model::CounterSample& e) {
    const model::KeyedCounter* kc = enc->counters_.by_key(e.key);
    if (kc == nullptr) {
        ++enc->stats_.counts[EncoderStat::UnknownKey];
        return false;
    }
    if (kc->delivery == model::Delivery::Block)
        add_block(e.ts, e.core, e.key, e.value, e.pid);
    else
        write_counter(e.ts, e.core, e.key, e.value);
    return true;
}

// Counter frame: [timestamp][core][key][value]. The pid has no place here.
void Encoder::Impl::write_counter(model::Nanos ts, std::int32_t core, model::CounterKey key,
                                  std::int64_t value) {
    MessageBuf m;
    m.p64(order(counter, ts));
    m.p32(core);
    m.p32(key);
    m.p64(value);
    append(counter, m);
}

namespace {
// Encodes one sample as Block Counter (key, value) pairs given the state the frame is in:
// [0][ts] when a new block starts, [2][core] and [1][pid] when they differ from the state.
void encode_block(MessageBuf& m, const OpenFrame& f, bool new_block, model::Nanos ts,
                  std::int32_t s_core, model::CounterKey key, std::int64_t value,
                  std::int32_t pid) {
    m.clear();
    std::int32_t core = f.block_core;
    std::int32_t cur_pid = f.block_pid;
    if (new_block) {
        m.p32(0);
        m.p64(ts);
        core = f.core;  // a timestamp resets the core to the header's and the pid to none
        cur_pid = 0;
    }
    if (s_core != core) {
        m.p32(2);
        m.p64(s_core);
    }
    if (pid != cur_pid) {
        m.p32(1);
        m.p64(pid);
    }
    m.p32(key);
    m.p64(value);
}
}  // namespace

// One Block Counter frame (header core 0) carries every core. A block (the samples sharing a
// timestamp) must stay in one frame, so when a sample does not fit, the open block moves to the
// next frame with it; only a block larger than a whole frame is split, and its continuation
// starts again with key 0 and the same timestamp.
void Encoder::Impl::add_block(model::Nanos sample_ts, std::int32_t core, model::CounterKey key,
                              std::int64_t value, std::int32_t sample_pid) {
    OpenFrame& f = block;
    const model::Nanos ts = order(f, sample_ts);
    const std::int32_t pid = sample_pid > 0 ? sample_pid : 0;  // the seed's pid 0: "no pid"
    bool new_block = !f.in_block || ts != f.block_ts;
    MessageBuf m;
    encode_block(m, f, new_block, ts, core, key, value, pid);
    if (f.body.size() + m.size() > cap) {
        if (!new_block && f.block_start > f.header_size) {
            carry.assign(f.body.begin() + static_cast<std::ptrdiff_t>(f.block_start), f.body.end());
            f.body.resize(f.block_start);
            const std::int32_t block_core = f.block_core, cur_pid = f.block_pid;
            send(f);
            f.append(carry.data(), carry.size());
            f.in_block = true;
            f.block_start = f.header_size;
            f.block_core = block_core;
            f.block_pid = cur_pid;
        }
        if (f.body.size() + m.size() > cap) {
            send(f);
            new_block = true;
            encode_block(m, f, new_block, ts, core, key, value, pid);
        }
    }
    if (new_block) {
        f.block_start = f.body.size();
        f.in_block = true;
        f.block_ts = ts;
    }
    f.append(m);
    f.block_core = core;
    f.block_pid = pid;
}

}  // namespace apcgate::apc
