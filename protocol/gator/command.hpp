// Commands and responses of the Gator TCP protocol (gator-protocol-v6.8.txt, "Target-Host
// Protocol"). Both directions share one header layout:
//
//   offset 0  int8       code
//   offset 1  int32 LE   body length
//   offset 5  body       `length` bytes
//
// before which the client sends newline-terminated handshake lines ("VERSION 680", "STREAMLINE")
// and we answer "GATOR 680\n".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::gator {

inline constexpr int kProtocolVersion = 680;
inline constexpr std::string_view kHandshakeReply = "GATOR 680\n";
inline constexpr std::size_t kMaxHandshakeLine = 64;
inline constexpr std::uint32_t kMaxCommandBody = 1024 * 1024;
inline constexpr std::size_t kHeaderSize = 5;

enum class CommandCode : std::uint8_t {
    RequestXml = 0,
    DeliverXml = 1,
    ApcStart = 2,
    ApcStop = 3,
    Disconnect = 4,
    Ping = 5,
};
const char* command_name(std::uint8_t code);  // "Request XML", ..., "unknown"

enum class ResponseCode : std::uint8_t {
    Xml = 1,
    ApcData = 3,
    Ack = 4,
    Nak = 5,
    Error = 0xFF,
};

struct Command {
    std::uint8_t code = 0;  // may be a code we do not know: answer NAK
    std::vector<std::uint8_t> body;
    std::uint64_t offset = 0;  // stream offset of the header, for diagnostics
    [[nodiscard]] std::string_view text() const {
        return {reinterpret_cast<const char*>(body.data()), body.size()};  // NOLINT
    }
};

// The 5-byte response header for a body of `length` bytes.
std::array<std::uint8_t, kHeaderSize> response_header(ResponseCode code, std::uint32_t length);
// Header and body in one buffer (for small replies).
std::vector<std::uint8_t> response(ResponseCode code, std::string_view body = {});

}  // namespace apcgate::gator
