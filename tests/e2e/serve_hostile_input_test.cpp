// Client text and configurations (issue 27): names that try to forge log lines or flood the
// log, and configurations that would be accepted and then lost at the next start.
#include "serve_fixture.hpp"
#include "tests/xml/numbered_configuration.hpp"

namespace apcgate::e2e {
namespace {

using xml::testing::most_storable_numbered_counters;
using xml::testing::numbered_counters;

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

class HostileInputTest : public ServeTest {};

// Counter names are client text: a newline (&#10;) or an ESC byte in one must not forge a log
// line or reach the terminal of whoever reads the log.
TEST_F(HostileInputTest, ClientTextCannotForgeLogLines) {
    HostClient c = client();
    auto ack = c.request(kDeliverXml,
                         "<configurations revision='3'>"
                         "<configuration counter='evil&#10;FORGED-LINE apcgate: root login'/>"
                         "<configuration counter='esc\x1b[2Jcleared'/>"
                         "</configurations>");
    ASSERT_TRUE(ack);
    EXPECT_EQ(ack->code, kAck) << ack->body;
    expect_serving();
    const std::string log = daemon_->log();
    EXPECT_EQ(log.find("\nFORGED-LINE"), std::string::npos) << log;
    EXPECT_EQ(log.find('\x1b'), std::string::npos) << log;
    EXPECT_NE(log.find("evil\\nFORGED-LINE"), std::string::npos) << log;
    EXPECT_NE(log.find("esc\\x1b[2Jcleared"), std::string::npos) << log;
}

// 25,000 unknown counters make one summary line, not 25,000.
TEST_F(HostileInputTest, ManyUnknownCountersMakeABoundedNumberOfLogLines) {
    std::string doc = "<configurations revision='3'>";
    for (int i = 0; i < 25000; ++i) doc += "<configuration counter=u" + std::to_string(i) + "/>";
    doc += "</configurations>";
    const std::size_t lines_before = count(daemon_->log(), "\n");
    HostClient c = client();
    auto ack = c.request(kDeliverXml, doc);
    ASSERT_TRUE(ack);
    EXPECT_EQ(ack->code, kAck) << ack->body;
    expect_serving();
    const std::string log = daemon_->log();
    EXPECT_LT(count(log, "\n") - lines_before, 20U);
    EXPECT_NE(log.find("25000 of 25000 configured counters are not available here: u0, u1, u2 "
                       "and 24997 more"),
              std::string::npos)
        << log.substr(0, 4000);
}

// Restarts the daemon on the same state directory.
void restart(std::unique_ptr<DaemonProcess>& daemon, const std::filesystem::path& state,
             int& port) {
    daemon->signal(SIGTERM);
    ASSERT_EQ(daemon->wait(), std::optional<int>(0)) << daemon->log();
    daemon = std::make_unique<DaemonProcess>(std::vector<std::string>{
        "serve", "--listen", "127.0.0.1", "--port", "0", "--state-dir", state.string()});
    const auto p = daemon->wait_for_port();
    ASSERT_TRUE(p) << daemon->log();
    port = *p;
}

// Nearly 1 MiB of one counter repeated (what a careless script sends), written more compactly
// than the daemon stores it: accepted, it must come back after a restart as that counter, not
// silently as the defaults.
TEST_F(HostileInputTest, ARepeatedCounterConfigurationSurvivesARestart) {
    std::string doc = "<configurations revision='3'>";
    const std::string entry = "<configuration counter='Linux_net_rx'/>";
    const std::string end = "</configurations>";
    while (doc.size() + entry.size() + end.size() <= std::size_t{1024} * 1024) doc += entry;
    doc += end;
    {
        HostClient c = client();
        auto ack = c.request(kDeliverXml, doc);
        ASSERT_TRUE(ack);
        ASSERT_EQ(ack->code, kAck) << ack->body;
    }
    restart(daemon_, state_, port_);
    HostClient c = client();
    auto configuration = c.request_xml("configuration");
    ASSERT_TRUE(configuration);
    auto parsed = xml::parse_configuration(configuration->body);
    ASSERT_TRUE(parsed) << parsed.error().to_string() << "\n" << daemon_->log();
    ASSERT_EQ(parsed->counters.size(), 1U) << daemon_->log();
    EXPECT_EQ(parsed->counters[0].counter, "Linux_net_rx");
    EXPECT_EQ(daemon_->log().find("ignoring stored configuration"), std::string::npos);
}

// The largest configuration the daemon stores loads again after a restart; one counter more is
// refused (NAK with the reason) rather than accepted and then lost.
TEST_F(HostileInputTest, TheLargestStoredConfigurationLoadsAfterARestartAndOneMoreIsRefused) {
    const std::size_t largest = most_storable_numbered_counters();
    {
        // One more, sent compactly so that it fits in a command; stored, it would not.
        std::string doc = "<configurations revision=3>";
        for (const auto& e : numbered_counters(largest + 1).counters)
            doc += "<configuration counter=" + e.counter + "/>";
        doc += "</configurations>";
        ASSERT_LE(doc.size(), 1024U * 1024U);
        HostClient c = client();
        auto nak = c.request(kDeliverXml, doc);
        ASSERT_TRUE(nak);
        EXPECT_EQ(nak->code, kNak);
        EXPECT_NE(nak->body.find("bytes a stored configuration may have"), std::string::npos)
            << nak->body.substr(0, 500);
        auto ack = c.request(kDeliverXml, xml::write_configuration(numbered_counters(largest)));
        ASSERT_TRUE(ack);
        ASSERT_EQ(ack->code, kAck) << ack->body.substr(0, 500);
    }
    restart(daemon_, state_, port_);
    HostClient c = client();
    auto configuration = c.request_xml("configuration");
    ASSERT_TRUE(configuration);
    auto parsed = xml::parse_configuration(configuration->body);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    EXPECT_EQ(parsed->counters.size(), largest) << daemon_->log().substr(0, 4000);
}

}  // namespace
}  // namespace apcgate::e2e
