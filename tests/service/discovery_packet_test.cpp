// The discovery datagrams byte for byte: gatord's 12-byte request and 84-byte answer.
#include "daemon/service/discovery_packet.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/wire/byte_text.hpp"

namespace apcgate::daemon {
namespace {

std::vector<std::uint8_t> bytes(std::string_view s) {
    return {s.begin(), s.end()};
}

const std::vector<std::uint8_t> kRequest{'D', 'S', 'T', '_', 'R', 'E', 'Q', ' ', 0, 0, 0, 0x64};

std::uint32_t le32_at(const DiscoveryAnswer& a, std::size_t at) {
    return static_cast<std::uint32_t>(a[at]) | static_cast<std::uint32_t>(a[at + 1]) << 8 |
           static_cast<std::uint32_t>(a[at + 2]) << 16 |
           static_cast<std::uint32_t>(a[at + 3]) << 24;
}

TEST(DiscoveryRequest, TheTwelveBytesStreamlineSendsAreAccepted) {
    EXPECT_TRUE(parse_discovery_request(kRequest).ok());
}

TEST(DiscoveryRequest, WrongSizeIsRejectedNamingTheSize) {
    for (std::size_t n : {0U, 8U, 11U}) {
        const std::vector<std::uint8_t> cut(kRequest.begin(),
                                            kRequest.begin() + static_cast<std::ptrdiff_t>(n));
        const Status st = parse_discovery_request(cut);
        ASSERT_FALSE(st.ok()) << n;
        EXPECT_EQ(st.error().record, "DST_REQ");
        EXPECT_EQ(st.error().field, "size");
    }
    std::vector<std::uint8_t> longer = kRequest;
    longer.push_back(0);
    EXPECT_FALSE(parse_discovery_request(longer).ok());
}

TEST(DiscoveryRequest, WrongMagicOrMessageIsRejectedWithItsOffset) {
    std::vector<std::uint8_t> magic = kRequest;
    magic[3] = '-';
    Status st = parse_discovery_request(magic);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().field, "magic");
    EXPECT_EQ(st.error().offset, std::optional<std::uint64_t>(0));

    std::vector<std::uint8_t> message = kRequest;
    message[11] = 0x65;
    st = parse_discovery_request(message);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().field, "message");
    EXPECT_EQ(st.error().offset, std::optional<std::uint64_t>(8));
    EXPECT_NE(st.error().to_string().find("offset 8"), std::string::npos);
}

TEST(DiscoveryAnswer, LayoutIsGatordsRviConfigureInfo) {
    const DiscoveryAnswer a = make_discovery_answer("board-7", 9000);
    ASSERT_EQ(a.size(), 84U);
    EXPECT_EQ(std::string(a.begin(), a.begin() + 8), "STR_ANS ");
    const std::string_view host = wire::text_of(a).substr(28);
    EXPECT_EQ(host.substr(0, host.find('\0')), "board-7");
    EXPECT_EQ(le32_at(a, 72), 9000U);  // defaultGateway carries the port
    EXPECT_EQ(le32_at(a, 76), 680U);   // subnetMask carries the protocol version
    // Everything else is zero: message id, MAC, types, DHCP, IP, connections, name padding.
    for (std::size_t i = 8; i < 84; ++i) {
        const bool name = i >= 28 && i < 28 + 7;
        const bool port_or_version = i >= 72 && i < 80;
        if (!name && !port_or_version) {
            EXPECT_EQ(a[i], 0) << "byte " << i;
        }
    }
}

TEST(DiscoveryAnswer, TheDefaultPortIsLeftOutAsGatordDoes) {
    const DiscoveryAnswer a = make_discovery_answer("b", 8080);
    EXPECT_EQ(le32_at(a, 72), 0U);
}

TEST(DiscoveryAnswer, LongHostNamesAreCutAndStayNulTerminated) {
    const std::string name(100, 'h');
    const DiscoveryAnswer a = make_discovery_answer(name, 1);
    auto fields = parse_discovery_answer(a);
    ASSERT_TRUE(fields) << fields.error().to_string();
    EXPECT_EQ(fields->host_name, std::string(39, 'h'));
    EXPECT_EQ(a[28 + 39], 0);
}

TEST(DiscoveryAnswer, ReadsBackWhatWasWritten) {
    auto fields = parse_discovery_answer(make_discovery_answer("target", 1234));
    ASSERT_TRUE(fields) << fields.error().to_string();
    EXPECT_EQ(fields->host_name, "target");
    EXPECT_EQ(fields->tcp_port, 1234U);
    EXPECT_EQ(fields->protocol_version, 680U);
}

TEST(DiscoveryAnswer, HostileAnswersAreRejectedNotOverread) {
    EXPECT_FALSE(parse_discovery_answer(bytes("STR_ANS ")).ok());
    DiscoveryAnswer no_nul = make_discovery_answer(std::string(39, 'x'), 1);
    no_nul[28 + 39] = 'x';
    auto r = parse_discovery_answer(no_nul);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "host_name");
    EXPECT_EQ(r.error().offset, std::optional<std::uint64_t>(28));
    DiscoveryAnswer magic = make_discovery_answer("x", 1);
    magic[0] = 'X';
    EXPECT_FALSE(parse_discovery_answer(magic).ok());
}

}  // namespace
}  // namespace apcgate::daemon
