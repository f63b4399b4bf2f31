// Writers for the payload-carrying frames (gator-protocol-v6.8.txt, "Annotate Frame Messages"
// and "External Frame Messages"), which split payloads larger than a frame.
#include <algorithm>
#include <cstring>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/encoder_impl.hpp"

namespace apcgate::apc {

using detail::MessageBuf;
using detail::OpenFrame;
using detail::packed_size;

namespace {
// A fragment smaller than this is not worth a message header: the frame is sent instead.
constexpr std::size_t kMinFragment = 16;
}  // namespace

// Annotate message: [core][tid][timestamp][size][size bytes of the annotation]. An annotation
// larger than the room left is cut into several messages with the same core, tid and
// timestamp, possibly over several frames; the reader joins them by tid in order.
bool Encoder::Impl::add(const model::Annotation& e) {
    OpenFrame& f = annotate;
    MessageBuf m;
    m.p32(e.core);
    m.p32(e.tid);
    m.p64(order(f, e.ts));
    // The common case, an annotation that fits the open frame whole, is written straight into
    // it (the frame grows once for the whole message); only one to be split goes through the
    // scratch buffer.
    const std::size_t whole = annotation_bytes_size(e.body);
    const std::size_t prefix = packed_size(static_cast<std::int64_t>(whole));
    if (f.body.size() + m.size() + prefix + whole <= cap) {
        const std::size_t at = f.body.size();
        f.body.resize(at + m.size() + prefix + whole);
        std::uint8_t* p = f.body.data() + at;
        std::memcpy(p, m.data(), m.size());
        p += m.size();
        p += wire::encode_packed64(static_cast<std::int64_t>(whole), p);
        enc->stats_.counts[EncoderStat::TruncatedNames] += write_annotation_bytes(e.body, p);
        return true;
    }
    scratch.clear();
    enc->stats_.counts[EncoderStat::TruncatedNames] += append_annotation_bytes(e.body, scratch);
    const std::size_t total = scratch.size();
    std::size_t pos = 0, pieces = 0;
    do {
        const std::size_t left = total - pos;
        const std::size_t used = f.body.size() + m.size();
        std::size_t chunk = left;
        if (used + packed_size(static_cast<std::int64_t>(left)) + left > cap) {
            // The size prefix of a smaller chunk is no longer than that of the whole rest.
            const std::size_t rest_prefix = packed_size(static_cast<std::int64_t>(left));
            const std::size_t room = cap > used + rest_prefix ? cap - used - rest_prefix : 0;
            if (room < std::min(left, kMinFragment) && !f.empty()) {
                send(f);
                continue;
            }
            chunk = std::min(left, room);
        }
        f.append(m);
        detail::BodyWriter(f.body).packed32(static_cast<std::int32_t>(chunk));
        f.append(scratch.data() + pos, chunk);
        pos += chunk;
        ++pieces;
    } while (pos < total);
    if (pieces > 1) ++enc->stats_.counts[EncoderStat::SplitPayloads];
    return true;
}

// External frame: [id][bytes to the end of the frame]. Each source id has its own open frame,
// so a source's bytes stay in order; bytes that do not fit continue in the id's next frame.
bool Encoder::Impl::add(const model::ExternalData& e) {
    if (e.id < 0) return false;  // -1 is the disconnect marker; ids are >= 0
    OpenFrame& f = external(e.id);
    std::size_t pos = 0, pieces = 0;
    do {
        if (f.body.size() >= cap) send(f);
        const std::size_t chunk = std::min(e.bytes.size() - pos, cap - f.body.size());
        f.append(e.bytes.data() + pos, chunk);
        pos += chunk;
        ++pieces;
    } while (pos < e.bytes.size());
    if (pieces > 1) ++enc->stats_.counts[EncoderStat::SplitPayloads];
    return true;
}

// Disconnect frame: [-1][id], alone in its frame. The source's pending bytes go first, and its
// open frame is dropped so a reused id starts afresh.
bool Encoder::Impl::add(const model::ExternalDisconnect& e) {
    if (e.id < 0) return false;
    if (auto it = externals.find(e.id); it != externals.end()) {
        if (!it->second.empty()) send(it->second);
        externals.erase(it);
    }
    OpenFrame f(FrameType::External, 0);
    detail::BodyWriter w(f.body);
    w.packed32(-1);
    w.packed32(e.id);
    send(f);
    return true;
}

}  // namespace apcgate::apc
