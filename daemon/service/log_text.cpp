#include "daemon/service/log_text.hpp"

#include <cstdint>

namespace apcgate::daemon {

namespace {

void hex_escape(std::string& out, unsigned char byte) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += "\\x";
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xF];
}

// Length of the valid UTF-8 sequence at `s` that may be shown as it is, or 0 (escape the byte).
std::size_t printable_utf8(std::string_view s) {
    const auto b0 = static_cast<unsigned char>(s[0]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
        cp = b0 & 0x1Fu;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        cp = b0 & 0x0Fu;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        cp = b0 & 0x07u;
    } else {
        return 0;
    }
    if (s.size() < len) return 0;
    for (std::size_t i = 1; i < len; ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if ((b & 0xC0u) != 0x80u) return 0;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    // C1 controls (U+0080..U+009F; 0x9B is a CSI to many terminals) and the line/paragraph
    // separators, which some viewers break lines at.
    const bool control = cp < 0xA0 || cp == 0x2028 || cp == 0x2029;
    if (overlong || surrogate || control || cp > 0x10FFFF) return 0;
    return len;
}

}  // namespace

std::string loggable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size() && i < max_bytes) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            if (c == '\\') out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c == '\n') {
            out += "\\n";
            ++i;
        } else if (c == '\r') {
            out += "\\r";
            ++i;
        } else if (c == '\t') {
            out += "\\t";
            ++i;
        } else if (const std::size_t n = c >= 0x80 ? printable_utf8(text.substr(i)) : 0; n > 0) {
            if (i + n > max_bytes) break;  // never half a character
            out.append(text.substr(i, n));
            i += n;
        } else {
            hex_escape(out, c);
            ++i;
        }
    }
    if (i < text.size()) out += "...(" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string loggable_examples(const std::vector<std::string>& names, std::size_t examples) {
    std::string out;
    const std::size_t shown = names.size() < examples ? names.size() : examples;
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0) out += ", ";
        out += loggable(names[i]);
    }
    if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

}  // namespace apcgate::daemon
