// Reads userspace annotation bytes (gator-protocol-v6.8.txt, "Userspace Annotations"):
//   ASCII String   [0x1B r g b]? text '\n'
//   UTF-8 String   0x1C 0x06 channel:i32 len:i16 [0x1B r g b]? utf8       (colour counts in len)
//   Marker         0x1C 0x05 len:i16 [0x1B r g b]? utf8                   (colour counts in len)
//   Visual         0x1C 0x04 len:i16 utf8 image_len:i32 image
//   Create Channel 0x1C 0x07 channel:i32 group:i32 len:i16 utf8
//   Create Group   0x1C 0x08 group:i32 len:i16 utf8
// All fixed-width integers are little endian.
#include <algorithm>
#include <cstddef>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/wire/byte_reader.hpp"

namespace apcgate::apc {

namespace {

// Splits a leading colour off a sized string (the colour counts in the string's length).
std::optional<model::Rgb> take_color(std::span<const std::uint8_t>& s) {
    if (s.size() < 4 || s[0] != kColorEscape) return std::nullopt;
    model::Rgb c{s[1], s[2], s[3]};
    s = s.subspan(4);
    return c;
}

std::string text_of(std::span<const std::uint8_t> s) {
    return {s.begin(), s.end()};
}

// Reads an int16 length and that many bytes; a negative length is an error.
std::span<const std::uint8_t> sized(wire::ByteReader& r) {
    const auto len = static_cast<std::int16_t>(r.u16("string length"));
    if (len < 0) {
        r.fail("negative string length " + std::to_string(len), "string length");
        return {};
    }
    return r.bytes(static_cast<std::size_t>(len), "string");
}

Result<model::AnnotationBody> parse_binary(wire::ByteReader& r) {
    r.u8("escape");
    const std::uint8_t code = r.u8("code");
    model::AnnotationBody out;
    switch (code) {
        case 0x04: {
            r.set_record("visual annotation");
            model::VisualAnnotation v;
            v.text = text_of(sized(r));
            const std::int32_t n = r.i32("image length");
            if (n < 0) r.fail("negative image length", "image length");
            const auto img = r.bytes(n < 0 ? 0 : static_cast<std::size_t>(n), "image");
            v.image.assign(img.begin(), img.end());
            out = std::move(v);
            break;
        }
        case 0x05: {
            r.set_record("marker annotation");
            auto s = sized(r);
            model::MarkerAnnotation m;
            m.color = take_color(s);
            m.text = text_of(s);
            out = std::move(m);
            break;
        }
        case 0x06: {
            r.set_record("string annotation");
            model::StringAnnotation a;
            a.channel = r.i32("channel");
            auto s = sized(r);
            a.color = take_color(s);
            a.text = text_of(s);
            out = std::move(a);
            break;
        }
        case 0x07: {
            r.set_record("create channel annotation");
            model::ChannelName c;
            c.channel = r.i32("channel");
            c.group = r.i32("group");
            c.name = text_of(sized(r));
            out = std::move(c);
            break;
        }
        case 0x08: {
            r.set_record("create group annotation");
            model::GroupName g;
            g.group = r.i32("group");
            g.name = text_of(sized(r));
            out = std::move(g);
            break;
        }
        default:
            if (r.ok()) r.seek(r.pos() - 1);  // report the code byte itself
            r.fail("unknown annotation code " + std::to_string(code), "code");
    }
    if (!r.ok()) return r.take_error();
    return out;
}

}  // namespace

Result<std::optional<std::size_t>> annotation_length(std::span<const std::uint8_t> bytes,
                                                     std::uint64_t offset) {
    if (bytes.empty()) return std::optional<std::size_t>{};
    if (bytes[0] != kAnnotationEscape) {
        // A colour's RGB bytes may be 0x0A: the line ends at the first '\n' after it.
        const std::size_t from = bytes[0] == kColorEscape ? 4 : 0;
        if (bytes.size() <= from) return std::optional<std::size_t>{};
        const auto nl = std::find(bytes.begin() + static_cast<std::ptrdiff_t>(from), bytes.end(),
                                  std::uint8_t{'\n'});
        if (nl == bytes.end()) return std::optional<std::size_t>{};
        return std::optional<std::size_t>{static_cast<std::size_t>(nl - bytes.begin()) + 1};
    }
    // A binary annotation's size follows from its length fields: parse it and, if the bytes
    // ran out, ask for more. Other failures are real errors.
    wire::ByteReader r(bytes, wire::Endian::Little, offset);
    r.set_record("annotation");
    auto parsed = parse_binary(r);
    if (parsed.ok()) return std::optional<std::size_t>{r.pos()};
    if (parsed.error().is(ErrorKind::Truncated)) return std::optional<std::size_t>{};
    return std::move(parsed).take_error();
}

Result<model::AnnotationBody> parse_annotation(std::span<const std::uint8_t> bytes,
                                               std::uint64_t offset) {
    wire::ByteReader r(bytes, wire::Endian::Little, offset);
    r.set_record("annotation");
    if (!bytes.empty() && bytes[0] == kAnnotationEscape) {
        auto out = parse_binary(r);
        if (out.ok() && !r.at_end()) {
            r.fail(std::to_string(r.remaining()) + " bytes after the annotation");
            return r.take_error();
        }
        return out;
    }
    r.set_record("ASCII string annotation");
    if (bytes.empty() || bytes.back() != '\n') {
        r.seek(bytes.size());
        r.fail("missing '\\n' terminator", "text");
        return r.take_error();
    }
    auto text = bytes.first(bytes.size() - 1);
    model::TextAnnotation t;
    t.color = take_color(text);
    t.text = text_of(text);
    return model::AnnotationBody{std::move(t)};
}

}  // namespace apcgate::apc
