#include "xml/xml_writer.hpp"

#include "xml/attribute_values.hpp"
#include "xml/xml_text.hpp"

namespace apcgate::xml {

XmlWriter::XmlWriter() : out_("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") {}

void XmlWriter::end_start_tag() {
    if (!in_start_tag_) return;
    out_ += ">\n";
    in_start_tag_ = false;
}

void XmlWriter::indent() {
    out_.append(2 * open_.size(), ' ');
}

XmlWriter& XmlWriter::open(std::string_view element) {
    end_start_tag();
    indent();
    out_ += '<';
    out_ += element;
    open_.emplace_back(element);
    in_start_tag_ = true;
    return *this;
}

XmlWriter& XmlWriter::attr(std::string_view name, std::string_view value) {
    if (!in_start_tag_) return *this;  // no start tag to add to: a caller bug, keep XML valid
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    append_attribute_value(out_, value);
    out_ += '"';
    return *this;
}

XmlWriter& XmlWriter::attr_if_set(std::string_view name, std::string_view value) {
    return value.empty() ? *this : attr(name, value);
}

XmlWriter& XmlWriter::attr_int(std::string_view name, std::int64_t value) {
    return attr(name, std::to_string(value));
}

XmlWriter& XmlWriter::attr_hex(std::string_view name, std::uint64_t value, int min_digits) {
    return attr(name, format_hex(value, min_digits));
}

XmlWriter& XmlWriter::attr_bool(std::string_view name, bool value) {
    return attr(name, format_bool(value));
}

XmlWriter& XmlWriter::attr_double(std::string_view name, double value) {
    return attr(name, format_double(value));
}

XmlWriter& XmlWriter::close() {
    if (open_.empty()) return *this;
    if (in_start_tag_) {
        out_ += "/>\n";
        in_start_tag_ = false;
        open_.pop_back();
        return *this;
    }
    const std::string name = std::move(open_.back());
    open_.pop_back();
    indent();
    out_ += "</" + name + ">\n";
    return *this;
}

std::string XmlWriter::finish() {
    while (!open_.empty()) close();
    return std::move(out_);
}

}  // namespace apcgate::xml
