// The whole sequence Streamline runs, against the real daemon: configure on one connection,
// capture on another, pings during the capture, stop, end of sequence, close. Every frame is
// decoded and the stream must keep the seed's frame rules.
#include <thread>

#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

TEST_F(ServeTest, ConfigureThenCaptureOnSeparateConnections) {
    {
        HostClient c = client();
        auto events = c.request_xml("events");
        ASSERT_TRUE(events);
        ASSERT_EQ(events->code, kXml);
        auto parsed_events = xml::parse_events(events->body);
        ASSERT_TRUE(parsed_events) << events->body;
        EXPECT_FALSE(parsed_events->empty());

        auto counters = c.request_xml("counters");
        ASSERT_TRUE(counters);
        EXPECT_EQ(counters->code, kXml);
        EXPECT_NE(counters->body.find("<counter name=\"Linux_cpu_user\""), std::string::npos);

        for (const char* type : {"configuration", "defaults"}) {
            auto r = c.request_xml(type);
            ASSERT_TRUE(r) << type;
            EXPECT_EQ(r->code, kXml);
            EXPECT_TRUE(xml::parse_configuration(r->body)) << r->body;
        }
        // Revision 2, as in the seed, with a counter this target does not have.
        auto ack = c.request(kDeliverXml,
                             "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n"
                             "<configurations revision=\"2\">\n"
                             "  <configuration counter=\"Linux_cpu_user\"/>\n"
                             "  <configuration counter=\"Linux_meminfo_memfree\"/>\n"
                             "  <configuration counter=\"ARMv7_Cortex_A8_cnt0\" event=\"0x8\"/>\n"
                             "</configurations>\n");
        ASSERT_TRUE(ack);
        EXPECT_EQ(ack->code, kAck);
        auto cfg = c.request_xml("configuration");
        ASSERT_TRUE(cfg);
        EXPECT_NE(cfg->body.find("revision=\"3\""), std::string::npos);
        EXPECT_NE(cfg->body.find("Linux_meminfo_memfree"), std::string::npos);
        c.send_command(kDisconnect);
        EXPECT_TRUE(c.wait_closed());
    }
    EXPECT_TRUE(std::filesystem::exists(state_ / "configuration.xml"));

    HostClient c = client();
    auto ack = c.request(kDeliverXml, kSession);
    ASSERT_TRUE(ack);
    EXPECT_EQ(ack->code, kAck);
    auto ping = c.request(kPing);
    ASSERT_TRUE(ping);
    EXPECT_EQ(ping->code, kAck);

    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    ASSERT_EQ(captured_xml->code, kXml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured) << captured_xml->body;
    EXPECT_EQ(captured->type, "Gator");
    ASSERT_EQ(captured->counters.size(), 2U) << captured_xml->body;  // unknown counter ignored
    EXPECT_EQ(captured->counters[0].type, "Linux_cpu_user");
    EXPECT_EQ(captured->counters[1].type, "Linux_meminfo_memfree");
    EXPECT_GT(captured->counters[0].key, 2);
    EXPECT_EQ(captured->info.target.sample_rate_hz, 101);

    ASSERT_TRUE(c.send_command(kApcStart));
    int pings = 0;
    // Frames flow; ping after every 3 frames, for a little while.
    StreamResult first = read_stream(c, std::chrono::milliseconds(700), 3, &pings);
    EXPECT_FALSE(first.end_of_sequence);
    EXPECT_TRUE(first.other.empty());
    ASSERT_TRUE(c.send_command(kApcStop));
    StreamResult rest = read_stream(c, std::chrono::seconds(5));
    EXPECT_TRUE(rest.end_of_sequence);
    EXPECT_TRUE(rest.other.empty());
    EXPECT_TRUE(c.wait_closed());
    EXPECT_GT(pings, 0);
    EXPECT_EQ(first.acks + rest.acks, pings);

    std::vector<std::string> frames = first.frames;
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    ASSERT_FALSE(checked.frames.empty());
    EXPECT_EQ(checked.frames.front().type, apc::FrameType::Summary);
    EXPECT_EQ(checked.summaries, 1U);
    EXPECT_GT(checked.thread_names, 0U);
    EXPECT_GT(checked.proc_comms, 0U);
    // ~100 Hz for at least 0.7 s on every core: many values for each enabled key, none else.
    const auto user_key = captured->counters[0].key;
    const auto free_key = captured->counters[1].key;
    EXPECT_GT(checked.values_per_key.at(user_key), 20U);
    EXPECT_GT(checked.values_per_key.at(free_key), 10U);
    EXPECT_EQ(checked.values_per_key.size(), 2U);
}

TEST_F(ServeTest, CaptureWithoutSessionUsesDefaultsAndLiveRate) {
    HostClient c = client();
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    EXPECT_GE(captured->counters.size(), 5U);
    ASSERT_TRUE(c.send_command(kApcStart));
    StreamResult first = read_frames(c, 2);
    // Live data arrives before the stop: flushed every live_rate (100 ms by default).
    EXPECT_GE(first.frames.size(), 2U);
    // Every enabled counter's values arrive live too, so the capture is stopped only once they
    // have (or after giving up). Stopping after the first two frames failed on a slow sanitizer
    // build: they can come within one clock tick of the start, and a CPU's user and system
    // shares need an interval in which /proc/stat's ticks moved.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (check_capture(first.frames, *captured).values_per_key.size() <
               captured->counters.size() &&
           std::chrono::steady_clock::now() < give_up) {
        StreamResult more = read_frames(c, 1, std::chrono::seconds(1));
        first.frames.insert(first.frames.end(), more.frames.begin(), more.frames.end());
    }
    ASSERT_TRUE(c.send_command(kApcStop));
    StreamResult rest = read_stream(c, std::chrono::seconds(5));
    EXPECT_TRUE(rest.end_of_sequence);
    auto frames = first.frames;
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    // Every enabled counter has values; the message names those that have none.
    std::string without;
    for (const auto& counter : captured->counters)
        if (checked.values_per_key.count(counter.key) == 0) without += " " + counter.type;
    EXPECT_EQ(checked.values_per_key.size(), captured->counters.size())
        << "counters without values:" << without;
}

TEST_F(ServeTest, DurationEndsTheCaptureWithEndOfSequence) {
    HostClient c = client();
    std::string session = kSession;
    session.replace(session.find("duration=\"0\""), 12, "duration=\"1\"");
    auto ack = c.request(kDeliverXml, session);
    ASSERT_TRUE(ack);
    ASSERT_EQ(ack->code, kAck);
    ASSERT_TRUE(c.send_command(kApcStart));
    StreamResult all = read_stream(c, std::chrono::seconds(10));
    EXPECT_TRUE(all.end_of_sequence);
    EXPECT_TRUE(c.wait_closed());
    EXPECT_GT(all.frames.size(), 5U);
}

TEST_F(ServeTest, ConfigurationPersistsAcrossRestarts) {
    {
        HostClient c = client();
        auto ack = c.request(kDeliverXml,
                             "<configurations revision='3'><configuration counter='Linux_net_rx'/>"
                             "</configurations>");
        ASSERT_TRUE(ack);
        EXPECT_EQ(ack->code, kAck);
    }
    daemon_->signal(SIGTERM);
    ASSERT_EQ(daemon_->wait(), std::optional<int>(0));
    const auto state = state_;
    daemon_ = std::make_unique<DaemonProcess>(std::vector<std::string>{
        "serve", "--listen", "127.0.0.1", "--port", "0", "--state-dir", state.string()});
    const auto port = daemon_->wait_for_port();
    ASSERT_TRUE(port);
    port_ = *port;
    HostClient c = client();
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    ASSERT_EQ(captured->counters.size(), 1U);
    EXPECT_EQ(captured->counters[0].type, "Linux_net_rx");
}

}  // namespace
}  // namespace apcgate::e2e
