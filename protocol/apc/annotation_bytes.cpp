// Writes userspace annotation bytes (gator-protocol-v6.8.txt, "Userspace Annotations"):
//   ASCII String   [0x1B r g b]? text '\n'
//   UTF-8 String   0x1C 0x06 channel:i32 len:i16 [0x1B r g b]? utf8       (colour counts in len)
//   Marker         0x1C 0x05 len:i16 [0x1B r g b]? utf8                   (colour counts in len)
//   Visual         0x1C 0x04 len:i16 utf8 image_len:i32 image
//   Create Channel 0x1C 0x07 channel:i32 group:i32 len:i16 utf8
//   Create Group   0x1C 0x08 group:i32 len:i16 utf8
// All fixed-width integers are little endian.
#include "protocol/apc/annotation_bytes.hpp"

#include "protocol/apc/frame_writer.hpp"
#include "protocol/wire/byte_writer.hpp"

namespace apcgate::apc {

namespace {

class AnnotationWriter {
public:
    explicit AnnotationWriter(std::vector<std::uint8_t>& out) : w_(out) {}

    void escape(std::uint8_t code) {
        w_.u8(kAnnotationEscape);
        w_.u8(code);
    }
    void i32(std::int32_t v) { w_.le32(static_cast<std::uint32_t>(v)); }
    void color(const std::optional<model::Rgb>& c) {
        if (!c) return;
        w_.u8(kColorEscape);
        w_.u8(c->r);
        w_.u8(c->g);
        w_.u8(c->b);
    }
    // int16 length (colour included), optional colour, then the text cut to fit.
    void sized_text(const std::optional<model::Rgb>& c, std::string_view text) {
        const std::size_t color_bytes = c ? 4 : 0;
        const std::string_view t = detail::utf8_prefix(text, kMaxAnnotationString - color_bytes);
        truncated_ += t.size() != text.size();
        w_.le16(static_cast<std::uint16_t>(t.size() + color_bytes));
        color(c);
        w_.raw(t);
    }
    void raw(std::string_view s) { w_.raw(s); }
    void raw(std::span<const std::uint8_t> b) { w_.raw(b); }
    void u8(std::uint8_t v) { w_.u8(v); }
    [[nodiscard]] std::size_t truncated() const { return truncated_; }

private:
    wire::ByteWriter w_;
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

}  // namespace

std::size_t append_annotation_bytes(const model::AnnotationBody& body,
                                    std::vector<std::uint8_t>& out) {
    AnnotationWriter w(out);
    std::visit(BodyWriter{w}, body);
    return w.truncated();
}

}  // namespace apcgate::apc
