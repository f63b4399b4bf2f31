#include "collectors/fxt/text.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace apcgate::collectors::fxt {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::size_t kMaxIdentifier = 96;

// Length of the valid UTF-8 sequence at in[i], 0 when it is not one.
std::size_t sequence_length(std::string_view in, std::size_t i) {
    const auto b0 = static_cast<unsigned char>(in[i]);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
        if (b0 == 0xED) hi = 0x9F;  // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
    } else {
        return 0;
    }
    if (i + n > in.size()) return 0;
    const auto b1 = static_cast<unsigned char>(in[i + 1]);
    if (b1 < lo || b1 > hi) return 0;
    for (std::size_t k = 2; k < n; ++k) {
        const auto b = static_cast<unsigned char>(in[i + k]);
        if (b < 0x80 || b > 0xBF) return 0;
    }
    return n;
}

template <typename T>
void append_number(std::string& out, T v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void append_hex(std::string& out, std::uint64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
    out += "0x";
    out.append(buf, r.ptr);
}

void append_label(std::string& out, std::string_view label) {
    if (label.empty()) return;
    out += " (";
    append_utf8(out, label);
    out += ')';
}

}  // namespace

namespace {
// Bytes that are themselves in the output: printable ASCII, tab and newline.
constexpr bool plain(unsigned char c) {
    return (c >= 0x20 && c < 0x80) || c == '\t' || c == '\n';
}
}  // namespace

void append_utf8(std::string& out, std::string_view in) {
    // Names and messages are nearly always plain ASCII: the stretch of plain bytes goes out in
    // one append, and only what follows it is looked at byte by byte.
    std::size_t i = 0;
    while (i < in.size() && plain(static_cast<unsigned char>(in[i]))) ++i;
    out.append(in.data(), i);
    while (i < in.size()) {
        const auto c = static_cast<unsigned char>(in[i]);
        if (c < 0x80) {
            if (c >= 0x20 || c == '\t' || c == '\n') {
                out += static_cast<char>(c);
            } else if (c != 0) {
                out += kReplacement;
            }
            ++i;
            continue;
        }
        const std::size_t n = sequence_length(in, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
        } else {
            out.append(in.substr(i, n));
            i += n;
        }
    }
}

std::string clean_utf8(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    append_utf8(out, in);
    return out;
}

void append_args(std::string& out, const ArgList& args, const ValueLabels* labels) {
    for (const Arg& a : args) {
        out += ' ';
        append_utf8(out, a.name);
        if (a.type == ArgType::Null) continue;
        out += '=';
        switch (a.type) {
            case ArgType::Int32:
            case ArgType::Int64:
                append_number(out, a.i());
                break;
            case ArgType::UInt32:
            case ArgType::UInt64:
                append_number(out, a.u());
                break;
            case ArgType::Double:
                if (std::isfinite(a.d())) {
                    append_number(out, a.d());
                } else {
                    out += std::isnan(a.d()) ? "nan" : (a.d() > 0 ? "inf" : "-inf");
                }
                break;
            case ArgType::String:
                append_utf8(out, a.s);
                break;
            case ArgType::Pointer:
                append_hex(out, a.u());
                if (labels != nullptr && labels->pointer) append_label(out, labels->pointer(a.u()));
                break;
            case ArgType::Koid:
                append_number(out, a.u());
                if (labels != nullptr && labels->koid) append_label(out, labels->koid(a.u()));
                break;
            case ArgType::Bool:
                out += a.i() != 0 ? "true" : "false";
                break;
            case ArgType::Null:
                break;
        }
    }
}

namespace {

// The text of an event whose strings are all plain ASCII and whose arguments are integers,
// booleans, nulls or plain strings (nearly every event), written into `buf` with inline copies;
// nullopt for any other event, or one longer than `buf`, which the general path writes. The
// text is the general path's to the byte: it only leaves out the checks that find nothing to
// clean.
class PlainText {
  public:
    static constexpr std::size_t kCapacity = 256;

    bool put(std::string_view s) {
        if (s.size() > static_cast<std::size_t>(end_ - p_)) return false;
        for (const char ch : s) {
            if (!plain(static_cast<unsigned char>(ch))) return false;
            *p_++ = ch;
        }
        return true;
    }
    bool put(char ch) {
        if (p_ == end_) return false;
        *p_++ = ch;
        return true;
    }
    template <typename T>
    bool number(T v) {
        auto r = std::to_chars(p_, end_, v);
        if (r.ec != std::errc{}) return false;
        p_ = r.ptr;
        return true;
    }
    bool arg(const Arg& a) {
        if (!put(' ') || !put(a.name)) return false;
        switch (a.type) {
            case ArgType::Null:
                return true;
            case ArgType::Int32:
            case ArgType::Int64:
                return put('=') && number(a.i());
            case ArgType::UInt32:
            case ArgType::UInt64:
                return put('=') && number(a.u());
            case ArgType::String:
                return put('=') && put(a.s);
            case ArgType::Bool:
                return put('=') && put(a.i() != 0 ? "true" : "false");
            default:
                return false;  // doubles and labelled values: the general path
        }
    }
    void append_to(std::string& out) const {
        out.append(buf_.data(), static_cast<std::size_t>(p_ - buf_.data()));
    }

  private:
    std::array<char, kCapacity> buf_;
    char* p_ = buf_.data();
    char* const end_ = buf_.data() + kCapacity;
};

}  // namespace

void append_event_text(std::string& out, std::string_view category, std::string_view name,
                       const ArgList& args, const ValueLabels* labels) {
    PlainText fast;
    bool ok = category.empty() || (fast.put(category) && fast.put(':'));
    ok = ok && fast.put(name);
    for (const Arg& a : args) ok = ok && fast.arg(a);
    if (ok) {
        fast.append_to(out);
        return;
    }

    out.reserve(out.size() + category.size() + name.size() + 1 + std::size_t{args.count} * 16);
    if (!category.empty()) {
        append_utf8(out, category);
        out += ':';
    }
    append_utf8(out, name);
    append_args(out, args, labels);
}

std::string counter_identifier(std::string_view event, std::string_view arg) {
    std::string out = "FXT_";
    auto add = [&out](std::string_view part) {
        for (const char ch : part) {
            const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                              (ch >= '0' && ch <= '9') || ch == '_';
            out += word ? ch : '_';
            if (out.size() >= kMaxIdentifier) return;
        }
    };
    add(event);
    out += '_';
    add(arg);
    return out;
}

}  // namespace apcgate::collectors::fxt
