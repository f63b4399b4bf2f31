// Writes userspace annotation bytes (gator-protocol-v6.8.txt, "Userspace Annotations"):
//   ASCII String   [0x1B r g b]? text '\n'
//   UTF-8 String   0x1C 0x06 channel:i32 len:i16 [0x1B r g b]? utf8       (colour counts in len)
//   Marker         0x1C 0x05 len:i16 [0x1B r g b]? utf8                   (colour counts in len)
//   Visual         0x1C 0x04 len:i16 utf8 image_len:i32 image
//   Create Channel 0x1C 0x07 channel:i32 group:i32 len:i16 utf8
//   Create Group   0x1C 0x08 group:i32 len:i16 utf8
// All fixed-width integers are little endian.
#include "protocol/apc/annotation_bytes.hpp"

#include <cassert>
#include <cstring>

#include "protocol/apc/frame_writer.hpp"

namespace apcgate::apc {

namespace {

// Writes into space already sized by annotation_bytes_size: millions of annotations a second
// go through here when a trace is converted, so no per-byte capacity checks.
class AnnotationWriter {
  public:
    explicit AnnotationWriter(std::uint8_t* out) : p_(out) {}

    void escape(std::uint8_t code) {
        u8(kAnnotationEscape);
        u8(code);
    }
    void i32(std::int32_t v) { le(static_cast<std::uint32_t>(v), 4); }
    void color(const std::optional<model::Rgb>& c) {
        if (!c) return;
        const std::uint8_t b[4] = {kColorEscape, c->r, c->g, c->b};
        put(b, 4);
    }
    // int16 length (colour included), optional colour, then the text cut to fit.
    void sized_text(const std::optional<model::Rgb>& c, std::string_view text) {
        const std::size_t color_bytes = c ? 4 : 0;
        const std::string_view t = detail::utf8_prefix(text, kMaxAnnotationString - color_bytes);
        truncated_ += t.size() != text.size();
        le(static_cast<std::uint32_t>(t.size() + color_bytes), 2);
        color(c);
        raw(t);
    }
    void raw(std::string_view s) { put(s.data(), s.size()); }
    void raw(std::span<const std::uint8_t> b) { put(b.data(), b.size()); }
    void u8(std::uint8_t v) { *p_++ = v; }
    [[nodiscard]] std::size_t truncated() const { return truncated_; }
    [[nodiscard]] const std::uint8_t* end() const { return p_; }

  private:
    void put(const void* src, std::size_t n) {
        if (n == 0) return;
        std::memcpy(p_, src, n);
        p_ += n;
    }
    void le(std::uint32_t v, int n) {
        for (int i = 0; i < n; ++i) *p_++ = static_cast<std::uint8_t>(v >> (8 * i));
    }
    std::uint8_t* p_;
    std::size_t truncated_ = 0;
};

struct BodyWriter {
    AnnotationWriter& w;

    void operator()(const model::TextAnnotation& a) const {
        w.color(a.color);
        w.raw(a.text);
        w.u8('\n');
    }
    void operator()(const model::StringAnnotation& a) const {
        w.escape(0x06);
        w.i32(a.channel);
        w.sized_text(a.color, a.text);
    }
    void operator()(const model::MarkerAnnotation& a) const {
        w.escape(0x05);
        w.sized_text(a.color, a.text);
    }
    void operator()(const model::GroupName& a) const {
        w.escape(0x08);
        w.i32(a.group);
        w.sized_text(std::nullopt, a.name);
    }
    void operator()(const model::ChannelName& a) const {
        w.escape(0x07);
        w.i32(a.channel);
        w.i32(a.group);
        w.sized_text(std::nullopt, a.name);
    }
    void operator()(const model::VisualAnnotation& a) const {
        w.escape(0x04);
        w.sized_text(std::nullopt, a.text);
        w.i32(static_cast<std::int32_t>(a.image.size()));
        w.raw(a.image);
    }
    void operator()(const model::RawAnnotation& a) const { w.raw(a.bytes); }
};

// The sizes BodyWriter writes, field by field.
struct BodySize {
    static std::size_t sized_text(const std::optional<model::Rgb>& c, std::string_view text) {
        const std::size_t color_bytes = c ? 4 : 0;
        return 2 + color_bytes +
               detail::utf8_prefix(text, kMaxAnnotationString - color_bytes).size();
    }
    std::size_t operator()(const model::TextAnnotation& a) const {
        return (a.color ? 4 : 0) + a.text.size() + 1;
    }
    std::size_t operator()(const model::StringAnnotation& a) const {
        return 2 + 4 + sized_text(a.color, a.text);
    }
    std::size_t operator()(const model::MarkerAnnotation& a) const {
        return 2 + sized_text(a.color, a.text);
    }
    std::size_t operator()(const model::GroupName& a) const {
        return 2 + 4 + sized_text(std::nullopt, a.name);
    }
    std::size_t operator()(const model::ChannelName& a) const {
        return 2 + 4 + 4 + sized_text(std::nullopt, a.name);
    }
    std::size_t operator()(const model::VisualAnnotation& a) const {
        return 2 + sized_text(std::nullopt, a.text) + 4 + a.image.size();
    }
    std::size_t operator()(const model::RawAnnotation& a) const { return a.bytes.size(); }
};

}  // namespace

// Converted traces are mostly spans: a channel's text or its end. They skip the visit.
std::size_t annotation_bytes_size(const model::AnnotationBody& body) {
    if (const auto* s = std::get_if<model::StringAnnotation>(&body)) return BodySize{}(*s);
    return std::visit(BodySize{}, body);
}

std::size_t write_annotation_bytes(const model::AnnotationBody& body, std::uint8_t* out) {
    AnnotationWriter w(out);
    if (const auto* s = std::get_if<model::StringAnnotation>(&body)) {
        BodyWriter{w}(*s);
    } else {
        std::visit(BodyWriter{w}, body);
    }
    return w.truncated();
}

std::size_t append_annotation_bytes(const model::AnnotationBody& body,
                                    std::vector<std::uint8_t>& out) {
    const std::size_t at = out.size();
    const std::size_t n = annotation_bytes_size(body);
    out.resize(at + n);
    AnnotationWriter w(out.data() + at);
    std::visit(BodyWriter{w}, body);
    // annotation_bytes_size and BodyWriter describe the same layout (a test holds them equal).
    assert(w.end() == out.data() + at + n);
    return w.truncated();
}

}  // namespace apcgate::apc
