// One pass over one annotation data connection: tokenizes it, parses every message, counts what
// the application sent and decides which bytes may be forwarded to Streamline. The bytes
// forwarded are the connection's own, unchanged and in order; what is held back is only the
// record being assembled, so a record is forwarded once it is known to be well formed (a
// visual's image streams through once its head checked). A framing or payload error ends the
// stream: the valid prefix went out, the bad record does not, and the connection is dropped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collectors/annotate/stream_tokenizer.hpp"

namespace apcgate::collectors::annotate {

// What one connection sent (messages by code; slot 0 unused).
struct StreamCounts {
    std::array<std::uint64_t, kCodeSlots> messages{};
    std::uint64_t forwarded_bytes = 0;
    std::uint64_t image_bytes = 0;         // visual image bytes (part of forwarded_bytes)
    std::optional<std::string> truncated;  // the record cut short at close, if any

    [[nodiscard]] std::uint64_t total_messages() const;
    // "string 3, marker 1" (codes with a count only).
    [[nodiscard]] std::string describe() const;
};

class StreamValidator {
  public:
    explicit StreamValidator(StreamLimits limits = {}) : tokenizer_(limits) {}

    // Validates the next bytes and appends to `forward` those that may go out now. Returns false
    // once the stream broke the protocol: error() says where and why, and later calls do nothing.
    bool feed(std::span<const std::uint8_t> bytes, std::vector<std::uint8_t>& forward);
    // The connection closed: a record cut short is normal (an application that died, or the
    // library's last send); its bytes are forwarded as they arrived and the cut is noted.
    void finish(std::vector<std::uint8_t>& forward);

    [[nodiscard]] const std::optional<Error>& error() const {
        return tokenizer_.error() ? tokenizer_.error() : error_;
    }
    [[nodiscard]] bool failed() const { return error().has_value(); }
    [[nodiscard]] const std::optional<HandshakeRecord>& handshake() const { return handshake_; }
    [[nodiscard]] bool handshake_done() const { return handshake_.has_value(); }
    [[nodiscard]] const StreamCounts& counts() const { return counts_; }
    [[nodiscard]] std::uint64_t offset() const { return tokenizer_.offset(); }

  private:
    void emit(std::span<const std::uint8_t> bytes, std::vector<std::uint8_t>& forward);

    StreamTokenizer tokenizer_;
    std::optional<HandshakeRecord> handshake_;  // raw span cleared: it points into the tokenizer
    std::optional<Error> error_;                // a payload that did not parse
    StreamCounts counts_;
    bool finished_ = false;
};

}  // namespace apcgate::collectors::annotate
