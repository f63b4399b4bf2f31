// Writer for model::SpanRun: many channel string annotations in one event (span_run.hpp). The
// bytes are exactly those the equivalent Annotation events give (encode_payloads.cpp):
//   Annotate message  core:packed32 tid:packed32 ts:packed64 size:packed32
//                     0x1C 0x06 channel:i32 len:i16 utf8            (gator-protocol-v6.8.txt,
//                     "Annotate Frame Messages" and "Userspace Annotations")
// Why a loop of its own: a converted trace is mostly these, millions a second, and the general
// path builds each message on the stack, sizes the frame per message and visits the body. Here
// the frame grows once for a run of items and each message is written straight into it. An item
// that does not fit the frame whole, or whose text needs cutting, goes through the general
// path, so frame splitting and truncation stay in one place.
#include <algorithm>
#include <cassert>
#include <cstring>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/encoder_impl.hpp"
#include "protocol/wire/short_copy.hpp"

namespace apcgate::apc {

using detail::OpenFrame;

namespace {

// The longest message header: core and tid (packed32, 5 bytes each), ts (packed64, 10) and the
// annotation's size (packed, 3 for sizes up to kMaxAnnotationString + 8).
constexpr std::size_t kMaxHeader = 5 + 5 + 10 + 3;
// 0x1C 0x06, the channel and the text's int16 length.
constexpr std::size_t kStringFixed = 2 + 4 + 2;
// Bytes an item may take at most besides its text.
constexpr std::size_t kMaxItem = kMaxHeader + kStringFixed;

// encode_packed64 for a value known to be >= 0: the same bytes, fewer branches. A plain byte
// loop rather than spreading the 7-bit groups over one 64-bit word and storing it at once: most
// values here take one or two bytes, so the loop ends at once and the wide store only adds work
// (docs/performance.md).
inline std::uint8_t* put_unsigned(std::uint64_t v, std::uint8_t* p) {
    while (v >= 64) {
        *p++ = static_cast<std::uint8_t>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(v);
    return p;
}

inline std::uint8_t* put_packed(std::int64_t v, std::uint8_t* p) {
    if (v >= 0) return put_unsigned(static_cast<std::uint64_t>(v), p);
    return p + wire::encode_packed64(v, p);
}

}  // namespace

// Writes the items from `item` on while they surely fit before `limit` (all of them when
// `checked` is false: the caller sized the frame for them); returns the first one not written.
const model::SpanItem* Encoder::Impl::write_spans(const model::SpanRun& run,
                                                  const model::SpanItem* item,
                                                  const model::SpanItem* end, std::uint8_t*& out,
                                                  const std::uint8_t* limit, bool checked) {
    OpenFrame& f = annotate;
    // Everything the loop reads is held in locals: stores through a byte pointer may alias
    // anything, and the compiler would otherwise load it again after every byte written.
    // Items reference their texts as SpanRun::add() laid them out (checked in debug builds).
    const char* const texts = run.texts.data();
    std::uint8_t* p = out;
    model::Nanos last = f.last_ts;
    std::uint64_t clamped = 0;
    for (; item != end; ++item) {
        const model::SpanItem i = *item;
        const std::size_t size = i.text_size;
        assert(i.text_offset + size <= run.texts.size());
        if (checked &&
            (size > kMaxAnnotationString || kMaxItem + size > static_cast<std::size_t>(limit - p)))
            break;
        // order(): a time older than the stream's last is clamped to it and counted.
        model::Nanos ts = i.ts;
        if (ts < last) {
            ++clamped;
            ts = last;
        }
        last = ts;
        p = put_packed(i.core, p);
        p = put_packed(i.tid, p);
        p = put_packed(ts, p);
        p = put_unsigned(kStringFixed + size, p);
        const auto ch = static_cast<std::uint32_t>(i.channel);
        p[0] = kAnnotationEscape;
        p[1] = 0x06;
        p[2] = static_cast<std::uint8_t>(ch);
        p[3] = static_cast<std::uint8_t>(ch >> 8);
        p[4] = static_cast<std::uint8_t>(ch >> 16);
        p[5] = static_cast<std::uint8_t>(ch >> 24);
        p[6] = static_cast<std::uint8_t>(size);
        p[7] = static_cast<std::uint8_t>(size >> 8);
        p += kStringFixed;
        wire::copy_short(p, texts + i.text_offset, size);
        p += size;
    }
    f.last_ts = last;
    enc->stats_.counts[EncoderStat::OutOfOrder] += clamped;
    out = p;
    return item;
}

bool Encoder::Impl::add(const model::SpanRun& run) {
    OpenFrame& f = annotate;
    if (run.empty()) return true;
    const model::SpanItem* item = run.items.data() + run.first;
    const model::SpanItem* const end = run.items.data() + run.items.size();
    // The texts lie back to back in item order, so what the pending items can take at most is
    // known at once: when it fits the open frame, the frame grows once and no item is checked.
    const std::size_t text_bytes = run.texts.size() - item->text_offset;
    const std::size_t bound = run.pending() * kMaxItem + text_bytes;
    if (text_bytes <= kMaxAnnotationString && f.body.size() + bound <= cap) {
        const std::size_t used = f.body.size();
        f.body.resize(used + bound);
        std::uint8_t* p = f.body.data() + used;
        write_spans(run, item, end, p, nullptr, false);
        f.body.resize(static_cast<std::size_t>(p - f.body.data()));
        return true;
    }
    while (item != end) {
        // Fill the frame up to its cap, each item checked; the one that does not surely fit
        // (the frame's end, or a text to cut) goes through the general path, which may send the
        // frame, split the annotation over two frames or truncate its text.
        const std::size_t used = f.body.size();
        f.body.resize(std::max(cap, used));
        std::uint8_t* const base = f.body.data();
        std::uint8_t* p = base + used;
        item = write_spans(run, item, end, p, base + cap, true);
        f.body.resize(static_cast<std::size_t>(p - base));
        if (item == end) break;
        model::Annotation a{
            item->ts, item->core, item->tid,
            model::StringAnnotation{item->channel, std::nullopt, std::string(run.text(*item))}};
        add(a);
        ++item;
    }
    return true;
}

}  // namespace apcgate::apc
