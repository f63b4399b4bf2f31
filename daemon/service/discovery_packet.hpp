// Streamline's UDP target discovery, the datagrams only (no sockets, no I/O): Streamline
// broadcasts a request on UDP port 30001 and every gatord that hears it answers the sender with
// its host name and TCP port, which fills Streamline's target list.
//
// The port: gatord binds UDP_REQ_PORT = 30001 in every version of UdpListener.h we read (and
// older gator's gatord.cpp), so that is where Streamline asks. Issue 8 and the team's notes say
// 30003; `serve --discovery-port` / APCGATE_DISCOVERY_PORT set another port if needed.
//
// Request (12 bytes, exactly; anything else is not a discovery request and gets no answer):
//
//   offset  size  field
//   0       8     magic      "DST_REQ " (ASCII, trailing space, no NUL)
//   8       4     message    00 00 00 64 (bytes, as gatord compares them)
//
// Answer (84 bytes; gatord's RVIConfigureInfo, 32-bit fields in the target's byte order, which
// is little-endian on every target Streamline supports, so we always write little-endian):
//
//   offset  size  field             value
//   0       8     magic             "STR_ANS "
//   8       4     message_id        0
//   12      8     ethernet_address  0
//   20      4     ethernet_type     0
//   24      4     dhcp              0
//   28      40    host_name         gethostname(), at most 39 bytes, NUL-padded
//   68      4     ip_address        0 (Streamline uses the datagram's source address)
//   72      4     tcp_port          the TCP port, or 0 when it is the default 8080
//   76      4     protocol_version  680 (the version our handshake answers)
//   80      4     active_conns      0
//
// Spec: docs/protocol/gatord-behaviour.md "Around the protocol"; the layout is the one of
// gator's daemon/capture/internal/UdpListener.h.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

inline constexpr std::uint16_t kDiscoveryPort = 30001;  // gatord's UDP_REQ_PORT
inline constexpr std::size_t kDiscoveryRequestSize = 12;
inline constexpr std::size_t kDiscoveryAnswerSize = 84;
inline constexpr std::size_t kDiscoveryHostNameSize = 40;  // including the NUL
inline constexpr std::uint16_t kGatorDefaultPort = 8080;   // not repeated in the answer

using DiscoveryAnswer = std::array<std::uint8_t, kDiscoveryAnswerSize>;

// Checks one received datagram. An error names the offset and field that did not match, so a
// debug log can say why a stray datagram was ignored.
Status parse_discovery_request(std::span<const std::uint8_t> datagram);

// The answer for `host_name` (cut to 39 bytes) serving TCP `tcp_port`.
DiscoveryAnswer make_discovery_answer(std::string_view host_name, std::uint16_t tcp_port);

// The fields of an answer, read back (tests, and a check that we wrote what we meant).
struct DiscoveryAnswerFields {
    std::string host_name;
    std::uint32_t tcp_port = 0;  // 0: the default port
    std::uint32_t protocol_version = 0;
};
Result<DiscoveryAnswerFields> parse_discovery_answer(std::span<const std::uint8_t> datagram);

}  // namespace apcgate::daemon
