#include "collectors/ctf/double_text.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace apcgate::collectors::ctf {

namespace {

// The finest fraction the exact path writes: 2^-19, whose 19 decimal places (n / 2^19 is
// n * 5^19 / 10^19) stay below 10^19, a u64.
constexpr int kFractionPlaces = 19;
constexpr double kFractionScale = 0x1p19;
constexpr auto kPow5 = [] {
    std::array<std::uint64_t, kFractionPlaces + 1> p{};
    p[0] = 1;
    for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 5;
    return p;
}();
// Up to 15 significant digits the exact expansion is the shortest text (double_text.hpp).
constexpr int kMaxExactDigits = 15;

char* searched(char* out, double value) {
    return std::to_chars(out, out + kDoubleTextBytes, value).ptr;
}

}  // namespace

char* write_double(char* out, double value) {
    const double a = std::fabs(value);
    // (NaN fails both comparisons.) Below 2^53 the integer part is exact in a u64.
    if (!(a >= 1 / kFractionScale && a < 0x1p53)) return searched(out, value);
    const auto whole = static_cast<std::uint64_t>(a);
    // Exact: whole <= a < 2 * whole (Sterbenz), or whole is 0.
    const double scaled = (a - static_cast<double>(whole)) * kFractionScale;
    const auto fraction = static_cast<std::uint64_t>(scaled);
    if (static_cast<double>(fraction) != scaled) return searched(out, value);

    // The integer part's digits, then the fraction's: odd / 2^n has exactly n decimal places
    // (odd * 5^n / 10^n), the last a 5.
    char digits[20 + kFractionPlaces];
    const int whole_len =
        whole == 0 ? 0 : static_cast<int>(std::to_chars(digits, digits + 20, whole).ptr - digits);
    int fraction_len = 0;
    if (fraction != 0) {
        const int halvings = std::countr_zero(fraction);
        fraction_len = kFractionPlaces - halvings;
        const std::uint64_t places =
            (fraction >> halvings) * kPow5[static_cast<std::size_t>(fraction_len)];
        char text[20];
        const auto n = static_cast<int>(std::to_chars(text, text + sizeof text, places).ptr - text);
        char* at = digits + whole_len;
        std::memset(at, '0', static_cast<std::size_t>(fraction_len - n));  // leading zeros
        std::memcpy(at + fraction_len - n, text, static_cast<std::size_t>(n));
    }
    // The significant digits: where they start in `digits`, how many, and the decimal exponent
    // of the first.
    int first = 0;
    int count = 0;
    int exponent = 0;
    if (whole != 0) {
        exponent = whole_len - 1;
        count = whole_len + fraction_len;
        if (fraction_len == 0)
            while (digits[count - 1] == '0') --count;
    } else {
        while (digits[first] == '0') ++first;
        exponent = -(first + 1);
        count = fraction_len - first;
    }
    if (count > kMaxExactDigits) return searched(out, value);

    if (value < 0) *out++ = '-';
    const int fixed_len = (whole != 0 ? whole_len : 1) + (fraction_len != 0 ? 1 + fraction_len : 0);
    // d[.ddd]e±XX: |exponent| <= 15 here, so two exponent digits.
    const int scientific_len = count + (count > 1 ? 1 : 0) + 4;
    if (fixed_len <= scientific_len) {
        if (whole != 0) {
            std::memcpy(out, digits, static_cast<std::size_t>(whole_len));
            out += whole_len;
        } else {
            *out++ = '0';
        }
        if (fraction_len != 0) {
            *out++ = '.';
            std::memcpy(out, digits + whole_len, static_cast<std::size_t>(fraction_len));
            out += fraction_len;
        }
        return out;
    }
    *out++ = digits[first];
    if (count > 1) {
        *out++ = '.';
        std::memcpy(out, digits + first + 1, static_cast<std::size_t>(count - 1));
        out += count - 1;
    }
    *out++ = 'e';
    *out++ = exponent < 0 ? '-' : '+';
    const int e = exponent < 0 ? -exponent : exponent;
    *out++ = static_cast<char>('0' + e / 10);
    *out++ = static_cast<char>('0' + e % 10);
    return out;
}

}  // namespace apcgate::collectors::ctf
