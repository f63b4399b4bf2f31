// Bytes seen as text and text as bytes, where one API hands out chars and another takes bytes:
// a stream's read() and write(), a string field of a binary record, a document kept as bytes.
// Both views show the same bytes: char and unsigned char may alias any object, so this is the
// one reinterpret_cast such a view needs, kept here. It is never a structure read over input
// bytes: that is ByteReader's job, with memcpy.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace apcgate::wire {

inline std::string_view text_of(std::span<const std::uint8_t> bytes) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see the top of the file
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

inline std::span<const std::uint8_t> bytes_of(std::string_view text) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see the top of the file
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// A byte buffer for an API that fills chars (std::istream::read).
inline char* chars_of(std::span<std::uint8_t> bytes) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see the top of the file
    return reinterpret_cast<char*>(bytes.data());
}

}  // namespace apcgate::wire
