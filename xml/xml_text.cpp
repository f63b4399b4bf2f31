#include "xml/xml_text.hpp"

#include <cstdint>

namespace apcgate::xml {
namespace {

bool is_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

// Length of the valid UTF-8 sequence starting at `i` (1 to 4), or 0 if it is not one. The
// ranges are those of RFC 3629's well-formed table, which excludes overlongs and surrogates.
std::size_t sequence_length(std::string_view s, std::size_t i, std::uint32_t& code_point) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = at(0);
    if (c < 0x80) {
        code_point = c;
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) low = 0xA0;
        if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (i + length > s.size() || at(1) < low || at(1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (!is_continuation(at(k))) return 0;
    code_point = c & (0xFFu >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) code_point = (code_point << 6) | (at(k) & 0x3Fu);
    return length;
}

bool allowed_in_xml(std::uint32_t cp) {
    if (cp == 0x09 || cp == 0x0A || cp == 0x0D) return true;
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return false;  // C0, DEL, C1 controls
    return cp != 0xFFFE && cp != 0xFFFF;
}

}  // namespace

std::string sanitize_xml_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        std::uint32_t cp = 0;
        const std::size_t length = sequence_length(text, i, cp);
        if (length == 0) {
            ++i;  // drop the bad byte only: what follows may be valid again
            continue;
        }
        if (allowed_in_xml(cp)) out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

void append_attribute_value(std::string& out, std::string_view text) {
    for (const char c : sanitize_xml_text(text)) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            case '\t':
                out += "&#9;";
                break;
            case '\n':
                out += "&#10;";
                break;
            case '\r':
                out += "&#13;";
                break;
            default:
                out += c;
        }
    }
}

}  // namespace apcgate::xml
