#include "collectors/ctf/field_text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>

#include "collectors/ctf/double_text.hpp"

namespace apcgate::collectors::ctf {

namespace {

constexpr std::string_view kCut = "...";

struct Writer {
    std::string& out;
    std::size_t limit;

    [[nodiscard]] bool full() const { return out.size() >= limit; }
    void text(std::string_view s) { out.append(s); }

    template <typename T>
    void number(T v, int base = 10) {
        char buf[72];
        if (base == 16) {
            out += "0x";
        } else if (base == 2) {
            out += "0b";
        } else if (base == 8 && v != 0) {
            out += '0';
        }
        const auto r = std::to_chars(buf, buf + sizeof buf, v, base);
        out.append(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    void real(double v) {
        char buf[kDoubleTextBytes];
        out.append(buf, static_cast<std::size_t>(write_double(buf, v) - buf));
    }

    void field(const bt_field* f, int depth);
    void integer(const bt_field* f, bt_field_class_type t);
    void labels(const bt_field* f, bt_field_class_type t);
    // What field() writes for a planned enumeration or array of decimal integers (a member,
    // depth 1).
    template <bool Signed>
    void planned_enum(const bt_field* f, const MemberText& m);
    template <bool Signed>
    void planned_array(const bt_field* f);
    void members(const bt_field* f, int depth);
    void elements(const bt_field* f, int depth);
    // "[e0, e1, ...]", at most kMaxArrayElements of them, each written by element(field).
    template <class Element>
    void array_of(const bt_field* f, Element&& element);
};

void Writer::integer(const bt_field* f, bt_field_class_type t) {
    const int base = static_cast<int>(
        bt_field_class_integer_get_preferred_display_base(bt_field_borrow_class_const(f)));
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
        const std::int64_t v = bt_field_integer_signed_get_value(f);
        // Negative numbers read best in decimal whatever the preferred base.
        if (v < 0 || base == 10)
            number(v);
        else
            number(static_cast<std::uint64_t>(v), base);
    } else {
        number(bt_field_integer_unsigned_get_value(f), base);
    }
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ENUMERATION)) labels(f, t);
}

void Writer::labels(const bt_field* f, bt_field_class_type t) {
    bt_field_class_enumeration_mapping_label_array labels = nullptr;
    std::uint64_t count = 0;
    const auto status = bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)
                            ? bt_field_enumeration_signed_get_mapping_labels(f, &labels, &count)
                            : bt_field_enumeration_unsigned_get_mapping_labels(f, &labels, &count);
    if (status != BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK || count == 0) return;
    text(" (");
    for (std::uint64_t i = 0; i < count && i < 4; ++i) {
        if (i != 0) text("|");
        append_utf8(out, labels[i], false, limit);
    }
    text(")");
}

template <bool Signed>
void Writer::planned_enum(const bt_field* f, const MemberText& m) {
    if (full()) return;
    std::int64_t value = 0;
    if constexpr (Signed) {
        value = bt_field_integer_signed_get_value(f);
        number(value);
    } else {
        const std::uint64_t u = bt_field_integer_unsigned_get_value(f);
        value = static_cast<std::int64_t>(u);
        number(u);
    }
    const bt_field_class_type t =
        Signed ? BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION : BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION;
    const MemberText::Labels* known = nullptr;
    for (const auto& l : m.labels)
        if (l.value == value) known = &l;
    if (known == nullptr && m.labels.size() < MemberText::kMaxCachedLabels) {
        MemberText::Labels made{value, {}};
        // (Half the size range: append_utf8 adds to its limit.)
        Writer all{made.text, std::numeric_limits<std::size_t>::max() / 2};
        all.labels(f, t);
        m.labels.push_back(std::move(made));
        known = &m.labels.back();
    }
    // Below the limit the labels are written whole (labels() cuts only past it).
    if (known != nullptr && out.size() + known->text.size() <= limit)
        out.append(known->text);
    else
        labels(f, t);
}

template <class Element>
void Writer::array_of(const bt_field* f, Element&& element) {
    const std::uint64_t n = bt_field_array_get_length(f);
    text("[");
    for (std::uint64_t i = 0; i < n && !full(); ++i) {
        if (i != 0) text(", ");
        if (i == kMaxArrayElements) {
            text(kCut);
            break;
        }
        element(bt_field_array_borrow_element_field_by_index_const(f, i));
    }
    text("]");
}

template <bool Signed>
void Writer::planned_array(const bt_field* f) {
    if (full()) return;
    array_of(f, [this](const bt_field* e) {
        if (full()) return;  // (the loop ends: as field() writes nothing when full)
        if constexpr (Signed)
            number(bt_field_integer_signed_get_value(e));
        else
            number(bt_field_integer_unsigned_get_value(e));
    });
}

void Writer::members(const bt_field* f, int depth) {
    const bt_field_class* fc = bt_field_borrow_class_const(f);
    const std::uint64_t n = bt_field_class_structure_get_member_count(fc);
    for (std::uint64_t i = 0; i < n && !full(); ++i) {
        if (i != 0) text(", ");
        text(bt_field_class_structure_member_get_name(
            bt_field_class_structure_borrow_member_by_index_const(fc, i)));
        text("=");
        field(bt_field_structure_borrow_member_field_by_index_const(f, i), depth + 1);
    }
}

void Writer::elements(const bt_field* f, int depth) {
    array_of(f, [this, depth](const bt_field* e) { field(e, depth + 1); });
}

void Writer::field(const bt_field* f, int depth) {
    if (full()) return;
    const bt_field_class_type t = bt_field_get_class_type(f);
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_INTEGER)) return integer(f, t);
    if (t == BT_FIELD_CLASS_TYPE_STRING) {
        text("\"");
        append_utf8(out, {bt_field_string_get_value(f), bt_field_string_get_length(f)}, true,
                    limit);
        text("\"");
        return;
    }
    if (t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)
        return real(bt_field_real_double_precision_get_value(f));
    if (t == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)
        return real(bt_field_real_single_precision_get_value(f));
    if (t == BT_FIELD_CLASS_TYPE_BOOL) return text(bt_field_bool_get_value(f) ? "true" : "false");
    if (t == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
        return number(bt_field_bit_array_get_value_as_integer(f), 16);
    if (depth >= kMaxNesting) return text(kCut);
    if (t == BT_FIELD_CLASS_TYPE_STRUCTURE) {
        text("{");
        members(f, depth);
        text("}");
    } else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
        elements(f, depth);
    } else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_OPTION)) {
        const bt_field* inner = bt_field_option_borrow_field_const(f);
        if (inner == nullptr)
            text("none");
        else
            field(inner, depth + 1);
    } else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_VARIANT)) {
        field(bt_field_variant_borrow_selected_option_field_const(f), depth + 1);
    } else {
        text("?");
    }
}

bool is_number(MemberText::Kind k) {
    using K = MemberText::Kind;
    return k == K::Signed || k == K::Unsigned || k == K::Hex || k == K::Real;
}

// A planned number member (is_number): most members are, and its prefix and
// digits put together on the stack and appended once cost less than two appends to the string.
// The text is Writer::number's and Writer::real's.
void append_number_member(std::string& out, const MemberText& m, const bt_field* f) {
    constexpr std::size_t kPrefixRoom = 64;
    char text[kPrefixRoom + kDoubleTextBytes];
    char* at = text;
    if (m.prefix.size() <= kPrefixRoom)
        at = std::copy(m.prefix.begin(), m.prefix.end(), text);
    else
        out.append(m.prefix);
    char* const end = text + sizeof text;
    switch (m.kind) {
        case MemberText::Kind::Signed:
            at = std::to_chars(at, end, bt_field_integer_signed_get_value(f)).ptr;
            break;
        case MemberText::Kind::Unsigned:
            at = std::to_chars(at, end, bt_field_integer_unsigned_get_value(f)).ptr;
            break;
        case MemberText::Kind::Hex:
            *at++ = '0';
            *at++ = 'x';
            at = std::to_chars(at, end, bt_field_integer_unsigned_get_value(f), 16).ptr;
            break;
        default:
            at = write_double(at, bt_field_real_double_precision_get_value(f));
            break;
    }
    out.append(text, static_cast<std::size_t>(at - text));
}

// Length of the valid UTF-8 sequence starting at `s[0]` (0 when invalid).
std::size_t utf8_length(std::string_view s) {
    const auto b0 = static_cast<unsigned char>(s[0]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (b0 >= 0xc2 && b0 <= 0xdf)
        n = 2, cp = b0 & 0x1f;
    else if (b0 >= 0xe0 && b0 <= 0xef)
        n = 3, cp = b0 & 0x0f;
    else if (b0 >= 0xf0 && b0 <= 0xf4)
        n = 4, cp = b0 & 0x07;
    else
        return 0;
    if (s.size() < n) return 0;
    for (std::size_t i = 1; i < n; ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if ((b & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3f);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not valid UTF-8.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

// Ends `out` at `limit` bytes (on a character boundary) with "..." when it is longer.
void cut(std::string& out, std::size_t limit) {
    if (out.size() <= limit + kCut.size()) return;
    std::size_t at = limit;
    while (at > 0 && (static_cast<unsigned char>(out[at]) & 0xc0) == 0x80) --at;
    out.resize(at);
    out.append(kCut);
}

}  // namespace

void append_utf8(std::string& out, std::string_view text, bool quoted, std::size_t limit) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t i = 0;
    while (i < text.size()) {
        if (out.size() >= limit) {
            out.append(kCut);
            return;
        }
        // Runs of printable ASCII (nearly all text) are copied in one go.
        std::size_t run = i;
        const std::size_t run_end = std::min(text.size(), i + (limit - out.size()));
        while (run < run_end) {
            const auto c = static_cast<unsigned char>(text[run]);
            if (c < 0x20 || c >= 0x7f || (quoted && (c == '"' || c == '\\'))) break;
            ++run;
        }
        if (run > i) {
            out.append(text.substr(i, run - i));
            i = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            if (quoted && (c == '"' || c == '\\')) out += '\\';
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t n = c >= 0x80 ? utf8_length(text.substr(i)) : 0;
        if (n > 0) {
            out.append(text.substr(i, n));
            i += n;
            continue;
        }
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
        ++i;
    }
}

std::vector<MemberText> plan_members(const bt_field_class* structure) {
    std::vector<MemberText> plan;
    if (structure == nullptr || bt_field_class_get_type(structure) != BT_FIELD_CLASS_TYPE_STRUCTURE)
        return plan;
    const std::uint64_t n = bt_field_class_structure_get_member_count(structure);
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto* m = bt_field_class_structure_borrow_member_by_index_const(structure, i);
        const bt_field_class* fc = bt_field_class_structure_member_borrow_field_class_const(m);
        const bt_field_class_type t = bt_field_class_get_type(fc);
        MemberText mt;
        mt.prefix =
            std::string(i == 0 ? "" : ", ") + bt_field_class_structure_member_get_name(m) + "=";
        mt.index = static_cast<std::uint32_t>(i);
        if (t == BT_FIELD_CLASS_TYPE_STRING) {
            mt.kind = MemberText::Kind::String;
        } else if (t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
            mt.kind = MemberText::Kind::Real;
        } else if (t == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER ||
                   t == BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER) {
            const auto base = bt_field_class_integer_get_preferred_display_base(fc);
            if (base == BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_DECIMAL)
                mt.kind = t == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER ? MemberText::Kind::Signed
                                                                  : MemberText::Kind::Unsigned;
            else if (base == BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL &&
                     t == BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)
                mt.kind = MemberText::Kind::Hex;
        } else if (t == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION ||
                   t == BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION) {
            if (bt_field_class_integer_get_preferred_display_base(fc) ==
                BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_DECIMAL)
                mt.kind = t == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION
                              ? MemberText::Kind::SignedEnum
                              : MemberText::Kind::UnsignedEnum;
        } else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
            const bt_field_class* element =
                bt_field_class_array_borrow_element_field_class_const(fc);
            const bt_field_class_type et = bt_field_class_get_type(element);
            if ((et == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER ||
                 et == BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER) &&
                bt_field_class_integer_get_preferred_display_base(element) ==
                    BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_DECIMAL)
                mt.kind = et == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER
                              ? MemberText::Kind::SignedArray
                              : MemberText::Kind::UnsignedArray;
        }
        plan.push_back(std::move(mt));
    }
    return plan;
}

void append_planned(std::string& out, const bt_field* structure,
                    const std::vector<MemberText>& plan, std::size_t limit) {
    using K = MemberText::Kind;
    Writer w{out, limit};
    for (const auto& m : plan) {
        if (w.full()) break;
        if (!is_number(m.kind)) out.append(m.prefix);  // (a number's goes with its digits)
        const bt_field* f =
            bt_field_structure_borrow_member_field_by_index_const(structure, m.index);
        switch (m.kind) {
            case K::Signed:
            case K::Unsigned:
            case K::Hex:
            case K::Real:
                append_number_member(out, m, f);
                break;
            case K::String:
                out += '"';
                append_utf8(out, {bt_field_string_get_value(f), bt_field_string_get_length(f)},
                            true, limit);
                out += '"';
                break;
            case K::SignedEnum:
                w.planned_enum<true>(f, m);
                break;
            case K::UnsignedEnum:
                w.planned_enum<false>(f, m);
                break;
            case K::SignedArray:
                w.planned_array<true>(f);
                break;
            case K::UnsignedArray:
                w.planned_array<false>(f);
                break;
            case K::Other:
                w.field(f, 1);
                break;
        }
    }
    cut(out, limit);
}

}  // namespace apcgate::collectors::ctf
