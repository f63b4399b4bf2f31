// A small streaming writer for the documents we send: elements with attributes, indented two
// spaces, every attribute value sanitised and escaped (xml_text.hpp). Element and attribute names
// are our own constants and are written as given. The seed's documents carry data only in
// attributes, so there is no text-content API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::xml {

class XmlWriter {
  public:
    XmlWriter();  // starts with <?xml version="1.0" encoding="UTF-8"?>

    // Starts a child of the current element (or the root).
    XmlWriter& open(std::string_view element);
    XmlWriter& attr(std::string_view name, std::string_view value);
    // Only when `value` is not empty: the seed's optional strings are better absent than "".
    XmlWriter& attr_if_set(std::string_view name, std::string_view value);
    XmlWriter& attr_int(std::string_view name, std::int64_t value);
    XmlWriter& attr_hex(std::string_view name, std::uint64_t value, int min_digits = 0);
    XmlWriter& attr_bool(std::string_view name, bool value);  // yes / no
    XmlWriter& attr_double(std::string_view name, double value);
    // Ends the current element: "/>" if it got no children.
    XmlWriter& close();

    // Closes whatever is still open and returns the document (ending in a newline).
    std::string finish();

  private:
    void end_start_tag();  // a child follows: finish the parent's start tag with '>'
    void indent();

    std::string out_;
    std::vector<std::string> open_;  // names of the elements not yet closed
    bool in_start_tag_ = false;      // the innermost element's start tag lacks its '>'
};

}  // namespace apcgate::xml
