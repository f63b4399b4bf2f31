// Reads the attributes of one element with a sticky first error, like wire::ByteReader: a
// parser reads every attribute it honours, then checks ok() once. Absent attributes read as
// nullopt and are not errors (callers keep their defaults); malformed or out-of-range values
// read as nullopt and record an Error naming the document, the element and the attribute.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/wire/result.hpp"

namespace apcgate::xml {

class AttributeReader {
  public:
    AttributeReader(pugi::xml_node element, std::string_view document)
        : element_(element), document_(document) {}

    // The raw value; nullopt when absent.
    [[nodiscard]] std::optional<std::string_view> text(const char* attr) const;
    // The raw value; records "missing required attribute" when absent.
    std::optional<std::string_view> required_text(const char* attr);

    std::optional<bool> boolean(const char* attr);
    std::optional<std::int64_t> integer(const char* attr, std::int64_t min, std::int64_t max);
    std::optional<std::uint64_t> hex(const char* attr, std::uint64_t max);
    std::optional<double> number(const char* attr);

    // One of the named `choices` (compared ignoring case); `what` names the kind of value in the
    // message, e.g. "request type" -> "unknown request type 'foo' (expected: a, b)".
    template <typename E>
    std::optional<E> choice(const char* attr, std::string_view what,
                            std::initializer_list<std::pair<std::string_view, E>> choices);

    // Records `message` about `attr` (if no error is recorded yet): a bad value (Malformed), or
    // one of the kind given.
    void fail(const char* attr, std::string message) {
        fail(ErrorKind::Malformed, attr, std::move(message));
    }
    void fail(ErrorKind kind, const char* attr, std::string message);

    [[nodiscard]] bool ok() const { return !error_.has_value(); }
    // The first error; only valid when !ok().
    Error take_error() && { return std::move(*error_); }

  private:
    bool matches_choice(std::string_view value, std::string_view choice) const;
    void fail_choice(const char* attr, std::string_view what, std::string_view value,
                     const std::string& expected);

    pugi::xml_node element_;
    std::string_view document_;
    std::optional<Error> error_;
};

template <typename E>
std::optional<E> AttributeReader::choice(
    const char* attr, std::string_view what,
    std::initializer_list<std::pair<std::string_view, E>> choices) {
    const auto value = text(attr);
    if (!value) return std::nullopt;
    std::string expected;
    for (const auto& [name, e] : choices) {
        if (matches_choice(*value, name)) return e;
        expected += (expected.empty() ? "" : ", ") + std::string(name);
    }
    fail_choice(attr, what, *value, expected);
    return std::nullopt;
}

}  // namespace apcgate::xml
