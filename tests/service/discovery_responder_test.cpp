// The UDP responder in-process, on loopback only: answers, ignores junk, follows the --listen
// address's interface, and keeps to its answer budget.
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <asio/post.hpp>
#include <thread>

#include "daemon/service/discovery.hpp"
#include "udp_probe.hpp"

namespace apcgate::daemon {
namespace {

using namespace std::chrono_literals;
using service_test::discovery_request;
using service_test::UdpProbe;

// Runs a responder on its own io_context thread for the length of a test.
class Running {
  public:
    explicit Running(DiscoveryOptions o) : responder_(io_, std::move(o)) {}
    ~Running() { finish(); }
    Result<asio::ip::udp::endpoint> start() {
        auto bound = responder_.open();
        if (bound) {
            responder_.start();
            thread_ = std::thread([this] { io_.run(); });
        }
        return bound;
    }
    // Stops and joins: the counters may be read afterwards.
    void finish() {
        if (!thread_.joinable()) return;
        asio::post(io_, [this] { responder_.stop(); });
        thread_.join();
    }
    DiscoveryResponder& responder() { return responder_; }

  private:
    asio::io_context io_;
    DiscoveryResponder responder_;
    std::thread thread_;
};

std::string host_name() {
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return std::string(buf).substr(0, 39);
}

TEST(DiscoveryResponder, AnswersWithHostNameAndTcpPortAfterIgnoringJunk) {
    Running r({"127.0.0.1", 0, 9123});
    auto bound = r.start();
    ASSERT_TRUE(bound) << bound.error().to_string();
    EXPECT_TRUE(r.responder().interface_index().has_value());  // loopback's interface only
    UdpProbe probe;
    const std::vector<std::uint8_t> junk{'D', 'S', 'T', '_', 'R', 'E', 'Q', ' ', 0, 0, 0, 0x65};
    ASSERT_TRUE(probe.send("127.0.0.1", bound->port(), junk));
    ASSERT_TRUE(probe.send("127.0.0.1", bound->port(), std::vector<std::uint8_t>(200, 'x')));
    ASSERT_TRUE(probe.send("127.0.0.1", bound->port(), discovery_request()));
    auto answer = probe.receive(10s);  // the first datagram back answers the third request
    ASSERT_TRUE(answer);
    auto fields = parse_discovery_answer(*answer);
    ASSERT_TRUE(fields) << fields.error().to_string();
    EXPECT_EQ(fields->host_name, host_name());
    EXPECT_EQ(fields->tcp_port, 9123U);
    EXPECT_EQ(fields->protocol_version, 680U);
    r.finish();
    EXPECT_EQ(r.responder().answered(), 1U);
    EXPECT_EQ(r.responder().ignored(), 2U);
}

TEST(DiscoveryResponder, TheWildcardListensOnIpv4AndIpv6) {
    Running r({"::", 0, 8080});
    auto bound = r.start();
    ASSERT_TRUE(bound) << bound.error().to_string();
    EXPECT_FALSE(r.responder().interface_index().has_value());
    UdpProbe v4;
    ASSERT_TRUE(v4.send("127.0.0.1", bound->port(), discovery_request()));
    auto a4 = v4.receive(10s);
    ASSERT_TRUE(a4);
    EXPECT_EQ(parse_discovery_answer(*a4)->tcp_port, 0U);  // 8080 is left out
    if (!bound->address().is_v6()) GTEST_SKIP() << "no IPv6 here: IPv4 checked only";
    UdpProbe v6(true);
    ASSERT_TRUE(v6.send("::1", bound->port(), discovery_request()));
    EXPECT_TRUE(v6.receive(10s));
}

// The first IPv4 address of this machine that is not loopback, if any.
std::optional<std::string> non_loopback_ipv4() {
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return std::nullopt;
    std::optional<std::string> out;
    for (ifaddrs* i = list; i != nullptr && !out; i = i->ifa_next) {
        if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
        sockaddr_in sin{};
        std::memcpy(&sin, i->ifa_addr, sizeof sin);
        const auto a = asio::ip::make_address_v4(ntohl(sin.sin_addr.s_addr));
        if (!a.is_loopback()) out = a.to_string();
    }
    ::freeifaddrs(list);
    return out;
}

TEST(DiscoveryResponder, ASpecificAddressIgnoresRequestsFromOtherInterfaces) {
    const auto address = non_loopback_ipv4();
    if (!address) GTEST_SKIP() << "this machine has no non-loopback IPv4 address";
    Running r({*address, 0, 8080});
    auto bound = r.start();
    ASSERT_TRUE(bound) << bound.error().to_string();
    ASSERT_TRUE(r.responder().interface_index().has_value());
    UdpProbe probe;  // arrives on loopback, not on the interface of `address`
    ASSERT_TRUE(probe.send("127.0.0.1", bound->port(), discovery_request()));
    EXPECT_FALSE(probe.receive(500ms));
    r.finish();
    EXPECT_EQ(r.responder().answered(), 0U);
}

TEST(DiscoveryResponder, AnAddressNoInterfaceHasIsAnError) {
    Running r({"192.0.2.77", 0, 8080});  // TEST-NET-1: on no interface here; nothing is sent
    auto bound = r.start();
    ASSERT_FALSE(bound.ok());
    EXPECT_NE(bound.error().to_string().find("no interface has address 192.0.2.77"),
              std::string::npos);
}

TEST(DiscoveryResponder, AnswersStopWhenTheBudgetIsSpent) {
    DiscoveryOptions o{"127.0.0.1", 0, 8080};
    o.answers_per_second = 0;  // no refill: exactly the burst is answered
    o.answer_burst = 3;
    Running r(o);
    auto bound = r.start();
    ASSERT_TRUE(bound) << bound.error().to_string();
    UdpProbe probe;
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(probe.send("127.0.0.1", bound->port(), discovery_request()));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(probe.receive(10s)) << i;
    EXPECT_FALSE(probe.receive(300ms));
    r.finish();
    EXPECT_EQ(r.responder().answered(), 3U);
    EXPECT_GE(r.responder().refused(), 1U);
}

TEST(DiscoveryResponder, APortInUseIsReportedNotFatal) {
    Running first({"127.0.0.1", 0, 8080});
    auto bound = first.start();
    ASSERT_TRUE(bound);
    Running second({"127.0.0.1", bound->port(), 8080});
    auto again = second.start();
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().to_string().find("cannot bind"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::daemon
