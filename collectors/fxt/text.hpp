// Text the FXT mapping shows in Streamline: span and note texts ("category:name" then the
// arguments), names, and counter identifiers. Every string from the archive passes through
// append_utf8 first, since archives may hold any bytes where the spec says UTF-8.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "collectors/fxt/records.hpp"

namespace apcgate::collectors::fxt {

// Appends `in` as valid UTF-8: invalid sequences and control characters other than tab and
// newline become U+FFFD; NUL bytes (padding some writers count into lengths) are dropped.
void append_utf8(std::string& out, std::string_view in);
std::string clean_utf8(std::string_view in);

// Labels of pointer and koid argument values (a userspace or kernel object's name, or empty).
struct ValueLabels {
    std::function<std::string_view(std::uint64_t)> pointer;
    std::function<std::string_view(std::uint64_t)> koid;
};

// " name=value" for each argument; pointers as hex, labelled with their object's name if known.
void append_args(std::string& out, const ArgList& args, const ValueLabels* labels = nullptr);
// "category:name" (just "name" without a category) followed by the arguments, appended to
// `out`: the item builder writes into a string whose buffer it reuses (text_pool.hpp).
void append_event_text(std::string& out, std::string_view category, std::string_view name,
                       const ArgList& args, const ValueLabels* labels = nullptr);

// A counter name usable as an events XML identifier: "FXT_" then letters, digits and '_'.
std::string counter_identifier(std::string_view event, std::string_view arg);

}  // namespace apcgate::collectors::fxt
