// Incremental parser for what a client sends: handshake lines, then commands. No I/O: the
// connection feeds whatever bytes arrived (one at a time or many) and takes parsed items out.
//
// Handshake (gator-protocol-v6.8.txt, "Magic Exchange"): lines of at most 64 bytes, ended by
// '\n', '\r' or NUL (as gatord tolerates); "STREAMLINE" ends the handshake, every other line
// ("VERSION 680", noise) is discarded. A '\n' right after a line ended by '\r' is skipped, so
// "STREAMLINE\r\n" does not leave a stray byte to be read as command code 10.
// Commands ("Command Header"): int8 code, int32 LE length (0..1 MiB), body.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "protocol/gator/command.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::gator {

class CommandReader {
  public:
    enum class Kind { NeedMore, HandshakeDone, Command, Error };
    struct Item {
        Kind kind = Kind::NeedMore;
        gator::Command command;  // Kind::Command
        Error error;             // Kind::Error: fatal, answer Error and close
    };

    // Consumes bytes from `data` up to the end of the next item (or all of it when more is
    // needed) and reports how many it used in `consumed`. After an Error, nothing more is read.
    Item parse(std::span<const std::uint8_t> data, std::size_t& consumed);

    // The error to report if the peer closes now (a truncated header or body), if any.
    [[nodiscard]] std::optional<Error> at_eof() const;
    [[nodiscard]] bool handshake_done() const { return state_ != State::Handshake; }

  private:
    enum class State { Handshake, Header, Body, Failed };
    Item fail(ErrorKind kind, std::string message, std::uint64_t offset, std::string_view field);
    // Each reads from data[consumed] on and advances `consumed`: an item to return, or nullopt
    // to go on with the next byte.
    std::optional<Item> handshake_byte(std::span<const std::uint8_t> data, std::size_t& consumed);
    std::optional<Item> header_bytes(std::span<const std::uint8_t> data, std::size_t& consumed);
    std::optional<Item> start_command();
    std::optional<Item> body_bytes(std::span<const std::uint8_t> data, std::size_t& consumed);

    State state_ = State::Handshake;
    std::string line_;
    bool skip_lf_ = false;
    std::uint8_t header_[kHeaderSize] = {};
    std::size_t header_len_ = 0;
    gator::Command pending_;
    std::uint32_t body_len_ = 0;
    std::uint64_t offset_ = 0;  // bytes consumed since the connection opened
};

}  // namespace apcgate::gator
