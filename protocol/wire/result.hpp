// Errors are values. A Result<T> holds either a T or an Error that names where the problem is
// (input, byte offset, record kind, field), what kind of problem it is and what went wrong; every
// layer that passes an error up may add a line of context. Only main() decides to exit. Callers
// that act differently on different errors ask the kind (is()), never the message: the message
// is for people and may be reworded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace apcgate {

// What kind of problem an Error is, for the callers that react to one kind differently (more
// bytes may come, another exit code, a retry): the few distinctions a user or a caller acts on.
enum class ErrorKind : std::uint8_t {
    Io,           // the OS refused a call (open, read, write, socket, fork): errno says why
    Truncated,    // the input ended inside a record: more bytes may come, or the file was cut
    Malformed,    // bytes or text that break the format's grammar or hold impossible values
    Unsupported,  // valid, but a version, format or feature apcgate (or this system) does not do
    Limit,        // over a size, count, depth, memory or time bound apcgate sets
    Usage,        // a bad option, argument or configuration value from the user
    Refused,      // an output that exists and may not be replaced, or a state that forbids it
    Internal,     // a broken promise inside apcgate or a library it runs: a bug, not the input
    // Internal stays last: a kind read back from bytes (the CTF worker's frames) is checked by it.
};

// The kind's name, for logs and JSON ("truncated", "malformed", ...).
[[nodiscard]] const char* kind_name(ErrorKind kind);

struct Error {
    ErrorKind kind = ErrorKind::Internal;  // an Error nobody filled in is a bug
    std::string message;                   // what went wrong, e.g. "length 70000 exceeds limit"
    std::string input;                     // file, socket peer or document name
    std::optional<std::uint64_t> offset;   // byte offset in `input`
    std::string record;                    // record or message kind being read
    std::string field;                     // field within that record
    std::vector<std::string> context;      // outermost last: "while reading command", ...

    static Error at(ErrorKind kind, std::string message) {
        return Error{kind, std::move(message), {}, {}, {}, {}, {}};
    }
    [[nodiscard]] bool is(ErrorKind k) const { return kind == k; }
    // Names the input; an inner name already set (e.g. "session XML") stays after it. On a
    // named Error it changes that Error in place; on a temporary it passes the Error on, so a
    // chain of calls can end in a return.
    Error& in_input(std::string name) & {
        input = input.empty() ? std::move(name) : std::move(name) + ": " + input;
        return *this;
    }
    Error&& in_input(std::string name) && { return std::move(in_input(std::move(name))); }
    Error& while_(std::string what) & {
        context.push_back(std::move(what));
        return *this;
    }
    Error&& while_(std::string what) && { return std::move(while_(std::move(what))); }
    // "input: offset 12 (0xc): record 'X', field 'y': message (while a; while b)"
    [[nodiscard]] std::string to_string() const;
};

template <typename T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

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
    // User-provided, not "= default": `return {};` value-initialises, and with a defaulted
    // constructor that first zeroes the whole object (the optional Error, some 180 bytes) in
    // every function that returns success, several times per record in the readers.
    Result() noexcept {}
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
