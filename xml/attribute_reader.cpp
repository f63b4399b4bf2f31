#include "xml/attribute_reader.hpp"

#include "xml/attribute_values.hpp"

namespace apcgate::xml {
namespace {

std::string quoted(std::string_view value) {
    return "'" + printable_excerpt(value) + "'";
}

}  // namespace

std::optional<std::string_view> AttributeReader::text(const char* attr) const {
    const pugi::xml_attribute a = element_.attribute(attr);
    if (!a) return std::nullopt;
    return std::string_view(a.value());
}

std::optional<std::string_view> AttributeReader::required_text(const char* attr) {
    auto value = text(attr);
    if (!value) fail(attr, std::string("missing required attribute ") + attr);
    return value;
}

std::optional<bool> AttributeReader::boolean(const char* attr) {
    const auto value = text(attr);
    if (!value) return std::nullopt;
    const auto parsed = parse_bool(*value);
    if (!parsed)
        fail(attr, std::string(attr) + " " + quoted(*value) +
                       " is not a boolean (yes, no, true, false, 1 or 0)");
    return parsed;
}

std::optional<std::int64_t> AttributeReader::integer(const char* attr, std::int64_t min,
                                                     std::int64_t max) {
    const auto value = text(attr);
    if (!value) return std::nullopt;
    const auto parsed = parse_decimal(*value);
    if (!parsed) {
        fail(attr, std::string(attr) + " " + quoted(*value) + " is not a decimal integer");
        return std::nullopt;
    }
    if (*parsed < min || *parsed > max) {
        fail(attr, std::string(attr) + " " + std::to_string(*parsed) + " is out of range [" +
                       std::to_string(min) + ", " + std::to_string(max) + "]");
        return std::nullopt;
    }
    return parsed;
}

std::optional<std::uint64_t> AttributeReader::hex(const char* attr, std::uint64_t max) {
    const auto value = text(attr);
    if (!value) return std::nullopt;
    const auto parsed = parse_hex(*value);
    if (!parsed) {
        fail(attr, std::string(attr) + " " + quoted(*value) + " is not a hexadecimal number");
        return std::nullopt;
    }
    if (*parsed > max) {
        fail(attr,
             std::string(attr) + " " + format_hex(*parsed) + " is larger than " + format_hex(max));
        return std::nullopt;
    }
    return parsed;
}

std::optional<double> AttributeReader::number(const char* attr) {
    const auto value = text(attr);
    if (!value) return std::nullopt;
    const auto parsed = parse_double(*value);
    if (!parsed) fail(attr, std::string(attr) + " " + quoted(*value) + " is not a number");
    return parsed;
}

void AttributeReader::fail(ErrorKind kind, const char* attr, std::string message) {
    if (error_) return;  // the first error is the one worth reporting
    Error e = Error::at(kind, std::move(message)).in_input(std::string(document_));
    e.record = element_.name();
    e.field = attr;
    error_ = std::move(e);
}

bool AttributeReader::matches_choice(std::string_view value, std::string_view choice) const {
    // Enumerations come from other programs: tolerate case and surrounding spaces.
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    return equals_ignoring_case(value, choice);
}

void AttributeReader::fail_choice(const char* attr, std::string_view what, std::string_view value,
                                  const std::string& expected) {
    fail(attr, "unknown " + std::string(what) + " " + quoted(value) +
                   " (expected one of: " + expected + ")");
}

}  // namespace apcgate::xml
