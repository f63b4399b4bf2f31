// Splits one annotation data connection into records, incrementally: bytes arrive in any chunks
// (the library flushes a ring buffer, so reads split records anywhere) and records come out as
// soon as they are whole. No I/O, no parsing of payloads (message_parser does that).
//
// Record grammar (docs/protocol/annotation-protocol.md, "Data stream"; authority: Arm's
// annotate/streamline_annotate.c, gator_connect and gator_msg_begin/end):
//   stream    := handshake message*          (it may end anywhere: truncation is normal)
//   handshake := "ANNOTATE " version '\n' tid:u32le pid:u32le dont_mangle_keys:u8
//   version   := 1 to 3 ASCII digits         (3, 4 or 5; the library sends "5")
//   message   := code:u8 length:u32le payload[length]
// Byte layout of a message: +0 code (0x01..0x10), +1 length (little endian, excludes these five
// bytes), +5 payload. A message's first min(length, max_message_bytes) payload bytes are its
// head, handed out whole; only a visual (code 0x05) may be longer, and its remaining image bytes
// are handed out as they arrive (MessageTail) so an image is never held in memory.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "collectors/annotate/annotate_protocol.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::annotate {

struct HandshakeRecord {
    int version = 0;
    std::uint32_t tid = 0;  // the annotating thread
    std::uint32_t pid = 0;
    std::uint8_t dont_mangle_keys = 0;
    std::span<const std::uint8_t> raw;  // the handshake's bytes as received
};

struct MessageRecord {
    std::uint8_t code = 0;
    std::uint32_t length = 0;            // of the whole payload
    std::uint64_t offset = 0;            // of the code byte in the stream
    std::span<const std::uint8_t> head;  // the first min(length, max_message_bytes) bytes
    std::span<const std::uint8_t> raw;   // header + head as received
};

// Payload bytes past a message's head (a visual's image), as they arrive.
struct MessageTail {
    std::span<const std::uint8_t> bytes;
};

using StreamToken = std::variant<HandshakeRecord, MessageRecord, MessageTail>;

class StreamTokenizer {
  public:
    explicit StreamTokenizer(StreamLimits limits = {}) : limits_(limits) {}

    // Consumes bytes from the front of `in` and returns the next token; nullopt when `in` ran
    // out first or on a framing error (error() is then set and nothing more comes out). Spans in
    // a token stay valid until the next call.
    std::optional<StreamToken> next(std::span<const std::uint8_t>& in);

    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    // Bytes of the record being assembled that no token has returned yet.
    [[nodiscard]] std::span<const std::uint8_t> held() const;
    // Where an unfinished record stands ("visual message at offset 40: 12 of 300 bytes"), for
    // truncation reports; nullopt at a record boundary.
    [[nodiscard]] std::optional<std::string> partial_record() const;
    [[nodiscard]] std::uint64_t offset() const { return offset_; }  // bytes consumed so far
    [[nodiscard]] bool handshake_done() const { return state_ > State::Ids; }

  private:
    enum class State { Magic, Version, Ids, Header, Head, Tail, Failed };

    // Moves up to `want` bytes of `in` into buf_; true when buf_ then holds `want` bytes.
    bool fill(std::span<const std::uint8_t>& in, std::size_t want);
    std::optional<StreamToken> fail(ErrorKind kind, std::uint64_t offset, const char* record,
                                    const char* field, std::string message);
    // One step of the state machine on a non-empty `in`: a token, or nullopt when it needs more
    // bytes (or failed).
    std::optional<StreamToken> step(std::span<const std::uint8_t>& in);
    std::optional<StreamToken> magic_byte(std::span<const std::uint8_t>& in);
    std::optional<StreamToken> version_byte(std::span<const std::uint8_t>& in);
    std::optional<StreamToken> handshake_ids(std::span<const std::uint8_t>& in);
    std::optional<StreamToken> on_header();
    std::optional<StreamToken> message_head(std::span<const std::uint8_t>& in);
    std::optional<StreamToken> message_tail(std::span<const std::uint8_t>& in);

    StreamLimits limits_;
    State state_ = State::Magic;
    std::vector<std::uint8_t> buf_;  // the current record's raw bytes (header + head)
    bool handed_out_ = false;        // buf_ went out in a token: clear it on the next call
    std::uint64_t offset_ = 0;
    std::uint64_t record_offset_ = 0;
    std::size_t version_digits_ = 0;
    int version_ = 0;
    std::uint8_t code_ = 0;
    std::uint32_t length_ = 0;
    std::size_t head_bytes_ = 0;
    std::uint64_t tail_left_ = 0;
    std::optional<Error> error_;
};

}  // namespace apcgate::collectors::annotate
