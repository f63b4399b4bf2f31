// Errors are values. A Result<T> holds either a T or an Error that names where the problem is
// (input, byte offset, record kind, field) and what went wrong; every layer that passes an error
// up may add a line of context. Only main() decides to exit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace apcgate {

struct Error {
    std::string message;                // what went wrong, e.g. "length 70000 exceeds limit"
    std::string input;                  // file, socket peer or document name
    std::optional<std::uint64_t> offset;  // byte offset in `input`
    std::string record;                 // record or message kind being read
    std::string field;                  // field within that record
    std::vector<std::string> context;   // outermost last: "while reading command", ...

    static Error at(std::string message) { return Error{std::move(message), {}, {}, {}, {}, {}}; }
    // Names the input; an inner name already set (e.g. "session XML") stays after it.
    Error&& in_input(std::string name) && {
        input = input.empty() ? std::move(name) : std::move(name) + ": " + input;
        return std::move(*this);
    }
    Error&& while_(std::string what) && {
        context.push_back(std::move(what));
        return std::move(*this);
    }
    // "input: offset 12 (0xc): record 'X', field 'y': message (while a; while b)"
    [[nodiscard]] std::string to_string() const;
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const Error& error() const { return std::get<1>(v_); }
    Error&& take_error() && { return std::get<1>(std::move(v_)); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
    [[nodiscard]] bool ok() const { return !error_.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *error_; }
    Error&& take_error() && { return std::move(*error_); }

private:
    std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace apcgate
