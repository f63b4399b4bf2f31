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
#include <cstring>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/encoder_impl.hpp"

namespace apcgate::apc {

using detail::OpenFrame;

namespace {

// The longest message header: core and tid (packed32, 5 bytes each), ts (packed64, 10) and the
// annotation's size (packed, 3 for sizes up to kMaxAnnotationString + 8).
constexpr std::size_t kMaxHeader = 5 + 5 + 10 + 3;
// 0x1C 0x06, the channel and the text's int16 length.
constexpr std::size_t kStringFixed = 2 + 4 + 2;

// encode_packed64 for values known to be >= 0: the same bytes, fewer branches.
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

bool Encoder::Impl::add(const model::SpanRun& run) {
    OpenFrame& f = annotate;
    const model::SpanItem* item = run.items.data() + run.first;
    const model::SpanItem* const end = run.items.data() + run.items.size();
    while (item != end) {
        // Grow the frame once for as many items as surely fit; the bound is the items' worst
        // case, so the zeroing resize() does stays close to what is written.
        std::size_t used = f.body.size();
        std::size_t bound = 0;
        const model::SpanItem* last = item;
        while (last != end && used + bound + kMaxHeader + kStringFixed + last->text_size <= cap &&
               last->text_size <= kMaxAnnotationString) {
            bound += kMaxHeader + kStringFixed + last->text_size;
            ++last;
        }
        if (last == item) {
            // Near the frame's end or a text to cut: the general path decides (it may send the
            // frame, split the annotation over two, or truncate the text).
            model::Annotation a{item->ts, item->core, item->tid,
                                model::StringAnnotation{item->channel, std::nullopt,
                                                        std::string(run.text(*item))}};
            add(a);
            ++item;
            continue;
        }
        f.body.resize(used + bound);
        std::uint8_t* const base = f.body.data();
        std::uint8_t* p = base + used;
        for (; item != last; ++item) {
            const std::string_view text = run.text(*item);
            p = put_packed(item->core, p);
            p = put_packed(item->tid, p);
            p = put_packed(order(f, item->ts), p);
            p = put_unsigned(kStringFixed + text.size(), p);
            p[0] = kAnnotationEscape;
            p[1] = 0x06;
            const auto ch = static_cast<std::uint32_t>(item->channel);
            p[2] = static_cast<std::uint8_t>(ch);
            p[3] = static_cast<std::uint8_t>(ch >> 8);
            p[4] = static_cast<std::uint8_t>(ch >> 16);
            p[5] = static_cast<std::uint8_t>(ch >> 24);
            p[6] = static_cast<std::uint8_t>(text.size());
            p[7] = static_cast<std::uint8_t>(text.size() >> 8);
            p += kStringFixed;
            if (!text.empty()) std::memcpy(p, text.data(), text.size());
            p += text.size();
        }
        f.body.resize(static_cast<std::size_t>(p - base));
    }
    return true;
}

}  // namespace apcgate::apc
