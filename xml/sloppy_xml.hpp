// A tolerant pre-pass that turns what real Gator clients send into XML pugixml accepts.
// Streamline and third-party clients send documents that are not quite XML: a request with an
// unquoted attribute (`<request type=counters/>`), a body padded with NUL bytes, stray
// whitespace before the root. Rather than teach a parser about each, we rewrite the text once:
// the result is well-formed wherever the input was merely sloppy, and unchanged wherever the
// input was already XML.
#pragma once

#include <string>
#include <string_view>

namespace apcgate::xml {

// Strips leading whitespace and a UTF-8 byte order mark, and trailing whitespace and NUL bytes.
std::string_view trim_document(std::string_view text);

// Quotes unquoted attribute values inside start tags (`a=b` -> `a="b"`, with `/>` right after
// the value still ending the tag) and gives value-less attributes an empty value (`a` ->
// `a=""`). Text, comments, CDATA, processing instructions, DOCTYPE and end tags are copied as
// they are. Linear in the input; never fails (what it cannot make sense of, it copies).
std::string quote_unquoted_attributes(std::string_view text);

}  // namespace apcgate::xml
