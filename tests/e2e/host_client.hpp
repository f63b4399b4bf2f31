// An in-repo host client that speaks the Gator protocol the way Streamline does (handshake,
// commands, XML exchange, APC data until end of sequence), written from the seed spec. Blocking
// sockets with timeouts: tests read exactly what the daemon sends, byte for byte.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::e2e {

using namespace std::chrono_literals;

struct Response {
    std::uint8_t code = 0;  // 1 XML, 3 APC data, 4 ACK, 5 NAK, 0xFF Error
    std::string body;
};

class HostClient {
  public:
    HostClient() = default;
    ~HostClient();
    HostClient(HostClient&& o) noexcept;
    HostClient& operator=(HostClient&& o) noexcept;

    static std::optional<HostClient> connect(int port);

    bool send_raw(std::string_view bytes);
    bool send_command(std::uint8_t code, std::string_view body = {});
    // "VERSION 680\nSTREAMLINE\n", then the daemon's line (expected "GATOR 680\n").
    std::optional<std::string> handshake(std::string_view lines = "VERSION 680\nSTREAMLINE\n");
    // The next response, or nullopt on timeout / connection closed.
    std::optional<Response> read(std::chrono::milliseconds timeout = 5s);
    // True when the daemon closed the connection (EOF or reset) within the timeout; any bytes
    // that arrive first are discarded.
    bool wait_closed(std::chrono::milliseconds timeout = 5s);
    // Closes with RST (SO_LINGER 0) instead of FIN: a client that vanishes.
    void abort();
    void close();

    // Convenience: send a command and read one response.
    std::optional<Response> request(std::uint8_t code, std::string_view body = {});
    std::optional<Response> request_xml(std::string_view type);

  private:
    bool read_exact(std::span<std::uint8_t> out, std::chrono::steady_clock::time_point deadline);
    int fd_ = -1;
};

// Command codes (seed: "Command Header") and response codes.
enum : std::uint8_t {
    kRequestXml = 0,
    kDeliverXml = 1,
    kApcStart = 2,
    kApcStop = 3,
    kDisconnect = 4,
    kPing = 5
};
enum : std::uint8_t { kXml = 1, kApcData = 3, kAck = 4, kNak = 5, kError = 0xFF };

}  // namespace apcgate::e2e
