#include "collectors/xray/event_text.hpp"

#include <cstdio>

namespace apcgate::collectors::xray {

std::string call_text(std::string_view name, std::span<const std::uint64_t> args) {
    std::string s(name);
    if (args.empty()) return s;
    s += " [";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i != 0) s += ", ";
        s += std::to_string(args[i]);
    }
    s += ']';
    return s;
}

bool printable_utf8(std::span<const std::uint8_t> b) {
    std::size_t i = 0;
    while (i < b.size()) {
        const std::uint8_t c = b[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
            ++i;
            continue;
        }
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if ((c & 0xE0U) == 0xC0U) {
            n = 1;
            cp = c & 0x1FU;
        } else if ((c & 0xF0U) == 0xE0U) {
            n = 2;
            cp = c & 0x0FU;
        } else if ((c & 0xF8U) == 0xF0U) {
            n = 3;
            cp = c & 0x07U;
        } else {
            return false;
        }
        if (i + n >= b.size()) return false;
        for (std::size_t k = 1; k <= n; ++k) {
            if ((b[i + k] & 0xC0U) != 0x80U) return false;
            cp = (cp << 6) | (b[i + k] & 0x3FU);
        }
        // Overlong forms, surrogates, beyond U+10FFFF and C1 controls are not printable text.
        static constexpr std::uint32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < kMin[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ||
            (cp >= 0x80 && cp < 0xA0))
            return false;
        i += n + 1;
    }
    return true;
}

std::string event_text(std::string_view label, std::span<const std::uint8_t> payload) {
    const bool cut = payload.size() > kMaxPayloadText;
    auto shown = payload.first(cut ? kMaxPayloadText : payload.size());
    std::string s(label);
    s += ": ";
    // A cut may split a UTF-8 character: try up to three bytes shorter before taking hex.
    bool text = printable_utf8(shown);
    for (std::size_t back = 1; cut && !text && back <= 3; ++back) {
        if (printable_utf8(shown.first(shown.size() - back))) {
            shown = shown.first(shown.size() - back);
            text = true;
        }
    }
    if (text) {
        s.append(shown.begin(), shown.end());
    } else {
        char hex[8];
        for (std::size_t i = 0; i < shown.size(); ++i) {
            std::snprintf(hex, sizeof hex, i == 0 ? "0x%02x" : " 0x%02x", shown[i]);
            s += hex;
        }
    }
    if (cut) s += "\u2026";
    return s;
}

}  // namespace apcgate::collectors::xray
