// Attribute values as the seed's documents spell them, both ways: booleans (yes/no, and the
// true/false/1/0 other clients write), decimal and hex integers, doubles. Readers trim
// surrounding whitespace and return nullopt for anything malformed; they never throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace apcgate::xml {

// yes/no/true/false/1/0, any letter case.
std::optional<bool> parse_bool(std::string_view text);
// Decimal, optional sign. nullopt on trailing junk or overflow of int64.
std::optional<std::int64_t> parse_decimal(std::string_view text);
// Hexadecimal with or without a 0x/0X prefix ("0xff", "FF"); nullopt beyond 64 bits.
std::optional<std::uint64_t> parse_hex(std::string_view text);
// A finite decimal floating-point number ("0.001", "1e-3").
std::optional<double> parse_double(std::string_view text);

std::string format_hex(std::uint64_t value, int min_digits = 0);  // "0x" + lowercase digits
std::string format_double(double value);  // shortest text that reads back to the same value
inline const char* format_bool(bool value) {
    return value ? "yes" : "no";
}

// At most 40 bytes of `text` for an error message, with anything but printable ASCII shown as
// '?': hostile values must not make error messages long or binary.
std::string printable_excerpt(std::string_view text);

// Case-insensitive ASCII comparison (enumerated attribute values).
bool equals_ignoring_case(std::string_view a, std::string_view b);

}  // namespace apcgate::xml
