// The real `apcgate serve` as a service: systemd notifications through a fake NOTIFY_SOCKET,
// UDP discovery, the settings file and SIGHUP, journal-style logging, the container health check.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <regex>
#include <thread>

#include "capture_check.hpp"
#include "daemon/service/discovery_packet.hpp"
#include "host_client.hpp"
#include "notify_listener.hpp"
#include "service_support.hpp"
#include "udp_probe.hpp"

namespace apcgate::service_test {
namespace {

using namespace std::chrono_literals;
using e2e::DaemonProcess;
using e2e::HostClient;
using e2e::temp_dir;

HostClient connected(int port) {
    auto c = HostClient::connect(port);
    EXPECT_TRUE(c);
    if (!c) return {};
    EXPECT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n"));
    return std::move(*c);
}

bool pings(int port) {
    auto c = HostClient::connect(port);
    if (!c || !c->handshake()) return false;
    auto r = c->request(e2e::kPing);
    return r && r->code == e2e::kAck;
}

TEST(ServiceNotify, ReadyIdleCapturingIdleStoppingAndACleanEndOnSigterm) {
    NotifyListener systemd;
    ASSERT_TRUE(systemd.ok());
    std::unique_ptr<DaemonProcess> d;
    {
        ScopedEnv env("NOTIFY_SOCKET", systemd.path());
        d = std::make_unique<DaemonProcess>(serve_args(temp_dir("state")));
    }
    const auto port = d->wait_for_port();
    ASSERT_TRUE(port) << d->log();
    auto ready = systemd.wait_for("READY=1");
    ASSERT_TRUE(ready) << d->log();
    EXPECT_NE(ready->find("STATUS=idle: listening on [127.0.0.1]:" + std::to_string(*port)),
              std::string::npos)
        << *ready;

    // A capture stopped by the client: capturing, then idle again.
    HostClient c = connected(*port);
    ASSERT_TRUE(c.send_command(e2e::kApcStart));
    EXPECT_TRUE(next_frame(c)) << d->log();
    EXPECT_TRUE(systemd.wait_for("STATUS=capturing")) << d->log();
    ASSERT_TRUE(c.send_command(e2e::kApcStop));
    EXPECT_TRUE(e2e::read_stream(c, 5s).end_of_sequence);
    EXPECT_TRUE(systemd.wait_for("STATUS=idle")) << d->log();

    // A capture ended by SIGTERM: STOPPING=1, and the client still gets its end of sequence.
    HostClient c2 = connected(*port);
    ASSERT_TRUE(c2.send_command(e2e::kApcStart));
    EXPECT_TRUE(next_frame(c2)) << d->log();
    EXPECT_TRUE(systemd.wait_for("STATUS=capturing")) << d->log();
    d->signal(SIGTERM);
    auto stopping = systemd.wait_for("STOPPING=1");
    ASSERT_TRUE(stopping) << d->log();
    EXPECT_NE(stopping->find("STATUS=stopping: SIGTERM"), std::string::npos);
    EXPECT_TRUE(e2e::read_stream(c2, 5s).end_of_sequence);
    EXPECT_EQ(d->wait(), std::optional<int>(0)) << d->log();
    // READY came first, STOPPING last.
    ASSERT_FALSE(systemd.seen().empty());
    EXPECT_NE(systemd.seen().front().find("READY=1"), std::string::npos);
    EXPECT_NE(systemd.seen().back().find("STOPPING=1"), std::string::npos);
}

TEST(ServiceNotify, WithoutNotifySocketNothingIsSentAndServingWorks) {
    ::unsetenv("NOTIFY_SOCKET");
    DaemonProcess d(serve_args(temp_dir("state")));
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    EXPECT_TRUE(pings(*port));
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
}

TEST(ServiceDiscovery, AnswersWithTheHostNameAndTheServedTcpPort) {
    DaemonProcess d(serve_args(temp_dir("state")));
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    const auto udp = number_after(d, "on UDP [0.0.0.0]:");
    ASSERT_TRUE(udp) << d.log();
    EXPECT_TRUE(d.wait_for_log("(interface of 127.0.0.1 only)")) << d.log();
    UdpProbe probe;
    ASSERT_TRUE(probe.send("127.0.0.1", static_cast<std::uint16_t>(*udp), discovery_request()));
    auto answer = probe.receive(10s);
    ASSERT_TRUE(answer) << d.log();
    auto fields = daemon::parse_discovery_answer(*answer);
    ASSERT_TRUE(fields) << fields.error().to_string();
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    EXPECT_EQ(fields->host_name, std::string(host).substr(0, 39));
    EXPECT_EQ(fields->tcp_port, static_cast<std::uint32_t>(*port));
    EXPECT_EQ(fields->protocol_version, 680U);
    EXPECT_EQ(udp_socket_inodes(d.pid()).size(), 1U);
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
}

// The UDP ports the daemon says it answers discovery on, once `count` of them are logged.
std::vector<std::uint16_t> discovery_ports_logged(const DaemonProcess& d, std::size_t count) {
    const std::regex line(R"(answering Streamline on UDP \[[^\]]*\]:(\d+))");
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (true) {
        const std::string log = d.log();
        std::vector<std::uint16_t> ports;
        for (std::sregex_iterator i(log.begin(), log.end(), line), end; i != end; ++i)
            ports.push_back(static_cast<std::uint16_t>(std::stoi((*i)[1])));
        if (ports.size() >= count || std::chrono::steady_clock::now() > deadline) return ports;
        std::this_thread::sleep_for(20ms);
    }
}

// gatord's port and the one Streamline has been seen asking on are both answered by default;
// here two free ports stand for them.
TEST(ServiceDiscovery, EveryDiscoveryPortGivenAnswers) {
    std::vector<std::string> args = serve_args(temp_dir("state"));
    args[6] = "0,0";  // --discovery-port
    DaemonProcess d(args);
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    const std::vector<std::uint16_t> udp = discovery_ports_logged(d, 2);
    ASSERT_EQ(udp.size(), 2U) << d.log();
    EXPECT_NE(udp[0], udp[1]);
    EXPECT_EQ(udp_socket_inodes(d.pid()).size(), 2U);
    for (const std::uint16_t p : udp) {
        UdpProbe probe;
        ASSERT_TRUE(probe.send("127.0.0.1", p, discovery_request()));
        auto answer = probe.receive(10s);
        ASSERT_TRUE(answer) << "port " << p << "\n" << d.log();
        auto fields = daemon::parse_discovery_answer(*answer);
        ASSERT_TRUE(fields) << fields.error().to_string();
        EXPECT_EQ(fields->tcp_port, static_cast<std::uint32_t>(*port));
    }
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
}

TEST(ServiceDiscovery, NoDiscoveryOpensNoUdpSocket) {
    DaemonProcess d(serve_args(temp_dir("state"), {"--no-discovery"}));
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    EXPECT_TRUE(d.wait_for_log("discovery: off (--no-discovery)")) << d.log();
    EXPECT_TRUE(udp_socket_inodes(d.pid()).empty());
    EXPECT_TRUE(pings(*port));
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
}

TEST(ServiceDiscovery, ABusyDiscoveryPortIsAWarningAndTcpServesOn) {
    UdpProbe holder;  // holds 0.0.0.0:busy, which the daemon then asks for
    const auto held = holder.bind_any();
    ASSERT_TRUE(held);
    const std::string busy = std::to_string(*held);
    std::vector<std::string> args = serve_args(temp_dir("state"));
    args[6] = busy;  // --discovery-port
    DaemonProcess d(args);
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    EXPECT_TRUE(d.wait_for_log("discovery: off: ")) << d.log();
    EXPECT_TRUE(pings(*port));
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
}

}  // namespace
}  // namespace apcgate::service_test
