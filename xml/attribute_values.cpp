#include "xml/attribute_values.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace apcgate::xml {
namespace {

std::string_view trim(std::string_view text) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    return text;
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// from_chars over the whole of `text`, or nullopt.
template <typename T, typename... Base>
std::optional<T> convert_all(std::string_view text, Base... base) {
    if (text.empty()) return std::nullopt;
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base...);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

std::optional<bool> parse_bool(std::string_view text) {
    text = trim(text);
    for (const std::string_view yes : {"yes", "true", "1"})
        if (equals_ignoring_case(text, yes)) return true;
    for (const std::string_view no : {"no", "false", "0"})
        if (equals_ignoring_case(text, no)) return false;
    return std::nullopt;
}

std::optional<std::int64_t> parse_decimal(std::string_view text) {
    text = trim(text);
    // from_chars takes '-' but not '+'; accept both, and not "+-5".
    if (text.starts_with('+')) {
        text.remove_prefix(1);
        if (text.starts_with('-')) return std::nullopt;
    }
    return convert_all<std::int64_t>(text, 10);
}

std::optional<std::uint64_t> parse_hex(std::string_view text) {
    text = trim(text);
    if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
    // from_chars for unsigned types would accept a leading '-' on some libraries: refuse it.
    if (text.starts_with('-') || text.starts_with('+')) return std::nullopt;
    return convert_all<std::uint64_t>(text, 16);
}

std::optional<double> parse_double(std::string_view text) {
    text = trim(text);
    if (text.starts_with('+')) {
        text.remove_prefix(1);
        if (text.starts_with('-')) return std::nullopt;
    }
    const auto value = convert_all<double>(text);
    if (!value || !std::isfinite(*value)) return std::nullopt;
    return value;
}

std::string format_hex(std::uint64_t value, int min_digits) {
    char digits[32];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value, 16);
    (void)ec;  // 16 hex digits always fit
    std::string out = "0x";
    const auto length = static_cast<int>(end - digits);
    if (length < min_digits) out.append(static_cast<std::size_t>(min_digits - length), '0');
    out.append(digits, end);
    return out;
}

std::string format_double(double value) {
    if (!std::isfinite(value)) return "0";  // the documents have no spelling for inf or NaN
    char text[64];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    if (ec != std::errc()) return "0";
    return std::string(text, end);
}

std::string printable_excerpt(std::string_view text) {
    constexpr std::size_t kMax = 40;
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (text.size() > kMax) out += "...";
    return out;
}

}  // namespace apcgate::xml
