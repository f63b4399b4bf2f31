#include "daemon/service/discovery_packet.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "protocol/gator/command.hpp"
#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/byte_text.hpp"

namespace apcgate::daemon {

namespace {

constexpr std::string_view kRequestMagic = "DST_REQ ";
constexpr std::array<std::uint8_t, 4> kRequestMessage{0, 0, 0, 0x64};
constexpr std::string_view kAnswerMagic = "STR_ANS ";
constexpr std::size_t kHostNameOffset = 28;
constexpr std::size_t kPortOffset = 72;
constexpr std::size_t kVersionOffset = 76;

bool same(std::span<const std::uint8_t> got, std::span<const std::uint8_t> want) {
    return got.size() == want.size() && std::equal(got.begin(), got.end(), want.begin());
}

void put_le32(DiscoveryAnswer& out, std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace

Status parse_discovery_request(std::span<const std::uint8_t> datagram) {
    wire::ByteReader r(datagram, wire::Endian::Little, 0, "discovery datagram");
    r.set_record("DST_REQ");
    if (datagram.size() != kDiscoveryRequestSize) {
        r.fail("size " + std::to_string(datagram.size()) + " is not " +
                   std::to_string(kDiscoveryRequestSize),
               "size");
        return r.take_error();
    }
    if (!same(r.bytes(kRequestMagic.size(), "magic"), wire::bytes_of(kRequestMagic))) {
        r.seek(0);
        r.fail("not \"DST_REQ \"", "magic");
        return r.take_error();
    }
    const auto message = r.bytes(kRequestMessage.size(), "message");
    if (!r.ok()) return r.take_error();
    if (!same(message, kRequestMessage)) {
        r.seek(kRequestMagic.size());
        r.fail("not 00 00 00 64", "message");
        return r.take_error();
    }
    return {};
}

DiscoveryAnswer make_discovery_answer(std::string_view host_name, std::uint16_t tcp_port) {
    DiscoveryAnswer out{};  // every field we do not fill is zero, as gatord sends it
    std::memcpy(out.data(), kAnswerMagic.data(), kAnswerMagic.size());
    // Keep the last byte NUL: Streamline reads a C string.
    const std::size_t n = std::min(host_name.size(), kDiscoveryHostNameSize - 1);
    std::memcpy(out.data() + kHostNameOffset, host_name.data(), n);
    // gatord leaves the port out when it is the default; Streamline then assumes 8080.
    put_le32(out, kPortOffset, tcp_port == kGatorDefaultPort ? 0 : tcp_port);
    put_le32(out, kVersionOffset, static_cast<std::uint32_t>(gator::kProtocolVersion));
    return out;
}

Result<DiscoveryAnswerFields> parse_discovery_answer(std::span<const std::uint8_t> datagram) {
    wire::ByteReader r(datagram, wire::Endian::Little, 0, "discovery datagram");
    r.set_record("STR_ANS");
    if (datagram.size() != kDiscoveryAnswerSize) {
        r.fail("size " + std::to_string(datagram.size()) + " is not " +
                   std::to_string(kDiscoveryAnswerSize),
               "size");
        return r.take_error();
    }
    if (!same(r.bytes(kAnswerMagic.size(), "magic"), wire::bytes_of(kAnswerMagic))) {
        r.seek(0);
        r.fail("not \"STR_ANS \"", "magic");
        return r.take_error();
    }
    r.seek(kHostNameOffset);
    const auto name = r.bytes(kDiscoveryHostNameSize, "host_name");
    r.seek(kPortOffset);
    DiscoveryAnswerFields f;
    f.tcp_port = r.u32("tcp_port");
    f.protocol_version = r.u32("protocol_version");
    if (!r.ok()) return r.take_error();
    const auto nul = std::find(name.begin(), name.end(), std::uint8_t{0});
    if (nul == name.end()) {
        r.seek(kHostNameOffset);
        r.fail("host name is not NUL-terminated", "host_name");
        return r.take_error();
    }
    f.host_name.assign(name.begin(), nul);
    return f;
}

}  // namespace apcgate::daemon
