// Tiny allocation-free scanning helpers shared by the parsers: procfs files are lines of
// whitespace-separated fields, and every parser walks them with these instead of iostreams.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace apcgate::collectors::procfs {

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Removes and returns the first line of `text` (without its '\n').
inline std::string_view next_line(std::string_view& text) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    return line;
}

// Removes and returns the next whitespace-separated field of `line` ("" at the end).
inline std::string_view next_field(std::string_view& line) {
    std::size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    const std::string_view field = line.substr(i, j - i);
    line.remove_prefix(j);
    return field;
}

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// The whole field as an unsigned integer in `base`; nullopt for anything else (sign, junk).
inline std::optional<std::uint64_t> parse_u64(std::string_view field, int base = 10) {
    if (field.empty()) return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v, base);
    if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
    return v;
}

// Like parse_u64 but also accepts a "0x" prefix (as /proc/cpuinfo writes hex values).
inline std::optional<std::uint64_t> parse_hex_u64(std::string_view field) {
    if (field.size() > 2 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X'))
        field.remove_prefix(2);
    return parse_u64(field, 16);
}

inline std::optional<std::uint64_t> next_u64(std::string_view& line) {
    return parse_u64(next_field(line));
}

inline bool starts_with_digits_after(std::string_view s, std::string_view prefix) {
    if (s.size() <= prefix.size() || s.substr(0, prefix.size()) != prefix) return false;
    for (char c : s.substr(prefix.size()))
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace apcgate::collectors::procfs
