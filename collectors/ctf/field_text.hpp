// CTF field values as annotation text, the way a person reads them in babeltrace2's output:
// integers in the base the metadata prefers (hex for `base = 16`), enumeration labels after
// the number, strings quoted and escaped, arrays and sequences in [ ], structures in { }, a
// variant as its selected option. Text is valid UTF-8 (invalid bytes become \xHH) and bounded:
// past `limit` bytes it ends with "...", and long arrays and deep nesting are cut.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMaxAnnotationText = 1024;
inline constexpr std::size_t kMaxArrayElements = 64;
inline constexpr int kMaxNesting = 8;

// The same text for every event of one class, prepared once: each top-level member's
// "name=" prefix and how to read it, so an event costs only the reads of its values.
struct MemberText {
    // Enumerations and arrays of plain decimal integers are planned too (the general path asks
    // every event for the field's type and display base, and every element's).
    enum class Kind : std::uint8_t {
        Signed,
        Unsigned,
        Hex,
        String,
        Real,
        SignedEnum,
        UnsignedEnum,
        SignedArray,
        UnsignedArray,
        Other
    };
    std::string prefix;  // ", name=" (no comma for the first)
    std::uint32_t index = 0;
    Kind kind = Kind::Other;
    // An enumeration's label text per value, as met (libbabeltrace2 searches the class's
    // mappings for every lookup; the labels of a value never change): " (A|B)" or "".
    struct Labels {
        std::int64_t value = 0;
        std::string text;
    };
    static constexpr std::size_t kMaxCachedLabels = 16;
    mutable std::vector<Labels> labels;
};
std::vector<MemberText> plan_members(const bt_field_class* structure);
// Appends the members of `structure` (an instance of the class `plan` was made from).
void append_planned(std::string& out, const bt_field* structure,
                    const std::vector<MemberText>& plan, std::size_t limit = kMaxAnnotationText);

// Appends `text` as valid UTF-8: invalid bytes and control characters become \xHH (with
// `quoted`, also escapes " and \).
void append_utf8(std::string& out, std::string_view text, bool quoted,
                 std::size_t limit = kMaxAnnotationText);

}  // namespace apcgate::collectors::ctf
