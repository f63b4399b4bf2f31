// A double as annotation text: the characters std::to_chars(first, last, value) writes (the
// shortest text that reads back as the value, fixed or scientific notation, whichever is
// shorter, fixed on a tie), made faster for the values traces mostly hold.
//
// std::to_chars searches for the shortest digits (Ryu); that search is most of what a double
// costs the CTF worker (docs/performance.md, "CTF"). A value whose exact binary value has a
// short decimal expansion needs no search: a multiple of 2^-19 below 2^53 is exactly an integer
// part and at most 19 fraction digits, and when those are at most 15 significant digits no
// shorter text lies within half a unit in the last place of it (10^-15 relative apart against
// 2^-53), so they are the shortest text. Every other value (zero, tiny, huge, not finite, more
// digits) goes to std::to_chars.
#pragma once

#include <cstddef>

namespace apcgate::collectors::ctf {

// Room write_double() may use: a sign, 17 digits, a point, "e-308" and more to spare.
inline constexpr std::size_t kDoubleTextBytes = 40;

// Writes `value` to `out` (kDoubleTextBytes of room) and returns the end of what it wrote.
char* write_double(char* out, double value);

}  // namespace apcgate::collectors::ctf
