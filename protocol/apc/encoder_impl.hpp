// The encoder's private state and per-message writers, split over encoder.cpp (frames, summary,
// dispatch), encode_messages.cpp (fixed and name messages), encode_counters.cpp (Counter and
// Block Counter), encode_payloads.cpp (Annotate and External splitting) and encode_spans.cpp
// (SpanRun) and encode_samples.cpp (SampleRun).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <vector>

#include "protocol/apc/encoder.hpp"
#include "protocol/apc/frame_writer.hpp"

namespace apcgate::apc {

struct Encoder::Impl {
    // Caps below this cannot hold the largest fixed-layout message plus a header; they are raised.
    static constexpr std::size_t kMinFrameBytes = 64;
    // Cores below this index get a slot in a flat vector (the hot path); others go to a map.
    static constexpr std::int32_t kDenseCores = 4096;

    explicit Impl(Encoder& e);

    // ---- frames (encoder.cpp)
    detail::OpenFrame& cored(FrameType t, std::int32_t core);
    detail::OpenFrame& external(std::int32_t id);
    void send(detail::OpenFrame& f);
    // Sends `f` first if `n` more bytes would push it over the cap.
    void make_room(detail::OpenFrame& f, std::size_t n) {
        if (f.body.size() + n > cap && !f.empty()) send(f);
    }
    void append(detail::OpenFrame& f, const detail::MessageBuf& m) {
        make_room(f, m.size());
        f.append(m);
    }
    // Writes a message of at most kMax bytes straight into `f` with `write(p)`, which returns
    // where the message ends: where make_room() then append() would put it, at the end of the
    // frame if it fits the cap, else alone in the next frame. The hot writers use it in place
    // of a MessageBuf, whose bytes append() then copies with a call to memcpy.
    template <std::size_t kMax, class Write>
    void put_message(detail::OpenFrame& f, Write&& write) {
        static_assert(kMax <= detail::kFrameSlack);
        const std::size_t at = f.body.size();
        if (at + kMax > f.body.capacity())  // grow as the vector would, but not past the slack
            f.body.reserve(
                std::max(at + kMax, std::min(2 * f.body.capacity(), cap + detail::kFrameSlack)));
        f.body.resize(at + kMax);
        std::uint8_t* const start = f.body.data() + at;
        const auto n = static_cast<std::size_t>(write(start) - start);
        if (at + n > cap && at != f.header_size) {
            std::uint8_t m[kMax];
            std::memcpy(m, start, n);
            f.body.resize(at);
            send(f);
            f.append(m, n);
            return;
        }
        f.body.resize(at + n);
    }
    // Clamps an out-of-order timestamp to the stream's last one (counted) and records it.
    model::Nanos order(detail::OpenFrame& f, model::Nanos ts) {
        if (ts < f.last_ts) {
            ++enc->stats_.counts[EncoderStat::OutOfOrder];
            ts = f.last_ts;
        }
        f.last_ts = ts;
        return ts;
    }
    // Longest string that fits an empty frame after `fixed` other message bytes (with its
    // packed length); counts a truncation.
    std::string_view fit_string(const detail::OpenFrame& f, std::size_t fixed, std::string_view s);
    void write_string(detail::OpenFrame& f, std::string_view s);
    void write_core_name(const model::CoreName& c);

    // ---- messages (encode_messages.cpp, encode_counters.cpp, encode_payloads.cpp); each
    // returns false when the event was dropped instead of written.
    bool add(const model::CoreName& e);
    bool add(const model::CookieName& e);
    bool add(const model::ThreadName& e);
    bool add(const model::ProcComm& e);
    bool add(const model::Backtrace& e);
    bool add(const model::CounterSample& e);
    bool add(const model::SchedSwitch& e);
    bool add(const model::SchedThreadExit& e);
    bool add(const model::ActivityLink& e);
    bool add(const model::ActivitySwitch& e);
    bool add(const model::TaskExit& e);
    bool add(const model::Idle& e);
    bool add(const model::Annotation& e);
    bool add(const model::ExternalData& e);
    bool add(const model::ExternalDisconnect& e);
    bool add(const model::SpanRun& e);     // encode_spans.cpp
    bool add(const model::SampleRun& e) {  // Encoder::add() writes these with add_samples()
        add_samples(e, e.pending());
        return false;
    }
    const model::SpanItem* write_spans(const model::SpanRun& run, const model::SpanItem* item,
                                       const model::SpanItem* end, std::uint8_t*& p,
                                       const std::uint8_t* limit, bool checked);
    // Writes the first `n` pending samples; counts the messages written per event kind.
    void add_samples(const model::SampleRun& run, std::size_t n);  // encode_samples.cpp
    void write_pc(const model::Sample& s);
    void write_counter_value(const model::Sample& s);
    // Counter frame message, Block Counter value and Backtrace message (encode_counters.cpp,
    // encode_messages.cpp): the writers behind both the single events and SampleRun.
    void write_counter(model::Nanos ts, std::int32_t core, model::CounterKey key,
                       std::int64_t value);
    void add_block(model::Nanos ts, std::int32_t core, model::CounterKey key, std::int64_t value,
                   std::int32_t pid);
    void write_backtrace(model::Nanos ts, std::int32_t core, std::int32_t exec_cookie,
                         std::int32_t pid, std::int32_t tid,
                         std::span<const model::StackFrame> frames);

    // Re-bound by every public Encoder call, so a moved Encoder never leaves it dangling.
    Encoder* enc;
    std::size_t cap;
    // Frames with a core in their header, per type and core (see cored()).
    static constexpr std::array<FrameType, 4> kCoredTypes{
        FrameType::Name, FrameType::Proc, FrameType::Backtrace, FrameType::SchedTrace};
    std::array<std::vector<detail::OpenFrame>, kCoredTypes.size()> dense;
    std::map<std::pair<FrameType, std::int32_t>, detail::OpenFrame> sparse;
    // Frames whose messages carry their own core (Block Counter uses key 2 inside one frame).
    detail::OpenFrame summary{FrameType::Summary, 0};
    detail::OpenFrame counter{FrameType::Counter, 0};
    detail::OpenFrame block{FrameType::BlockCounter, 0};
    detail::OpenFrame annotate{FrameType::Annotate, 0};
    detail::OpenFrame idle{FrameType::Idle, 0};
    detail::OpenFrame activity{FrameType::Activity, 0};
    std::map<std::int32_t, detail::OpenFrame> externals;  // one frame per source id
    std::vector<std::uint8_t> scratch;                    // annotation bytes, reused
    std::vector<std::uint8_t> carry;  // a Block Counter block moving to the next frame
    // Each key's frame kind (kNoCounter, or a Delivery + 1), by key: add_samples() asks it for
    // every value, and a flat table is a load where by_key() is a bounds check and a multiply.
    static constexpr std::uint8_t kNoCounter = 0;
    std::vector<std::uint8_t> delivery_by_key;
};

}  // namespace apcgate::apc
