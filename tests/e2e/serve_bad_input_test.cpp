// Hostile and sloppy input on the wire: each probe gets the answer the seed asks for (NAK and go
// on, or Error and close), and a fresh connection is served afterwards.
#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

std::string header(std::uint8_t code, std::uint32_t len) {
    std::string h(1, static_cast<char>(code));
    for (int i = 0; i < 4; ++i) h.push_back(static_cast<char>(len >> (8 * i)));
    return h;
}

// Sends raw bytes on a fresh connection; expects an Error response and a close.
void expect_error_and_close(int port, const std::string& bytes, const std::string& needle,
                            bool handshake = true) {
    auto c = HostClient::connect(port);
    ASSERT_TRUE(c);
    if (handshake) {
        ASSERT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n"));
    }
    ASSERT_TRUE(c->send_raw(bytes));
    auto r = c->read();
    ASSERT_TRUE(r) << "no response to probe containing '" << needle << "'";
    EXPECT_EQ(r->code, kError);
    EXPECT_NE(r->body.find(needle), std::string::npos) << r->body;
    EXPECT_TRUE(c->wait_closed());
}

TEST_F(ServeTest, GarbageBeforeHandshakeIsAnError) {
    expect_error_and_close(port_, std::string(100, '\x01'), "handshake line longer than 64", false);
    expect_serving();
}

TEST_F(ServeTest, OversizedBodyIsAnError) {
    expect_error_and_close(port_, header(kDeliverXml, 1024 * 1024 + 1), "exceeds the 1 MiB limit");
    expect_serving();
    expect_error_and_close(port_, header(kRequestXml, 0xFFFFFFF0u), "negative command length");
    expect_serving();
}

TEST_F(ServeTest, TruncatedHeaderAndBodyThenCloseKeepDaemonServing) {
    for (const std::string& bytes :
         {header(kPing, 0).substr(0, 3), header(kDeliverXml, 100) + "<ses"}) {
        auto c = HostClient::connect(port_);
        ASSERT_TRUE(c);
        ASSERT_TRUE(c->handshake());
        ASSERT_TRUE(c->send_raw(bytes));
        c->close();
        expect_serving();
    }
    EXPECT_NE(daemon_->log().find("connection closed inside a"), std::string::npos)
        << daemon_->log();
}

TEST_F(ServeTest, UnknownCommandIsNakAndConnectionGoesOn) {
    HostClient c = client();
    auto r = c.request(42, "whatever");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kNak);
    EXPECT_NE(r->body.find("unknown command 42"), std::string::npos);
    r = c.request(kPing);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kAck);
}

TEST_F(ServeTest, BadRequestsAreNakWithReasons) {
    HostClient c = client();
    struct Probe {
        std::uint8_t code;
        std::string body;
        std::string needle;
    };
    const Probe probes[] = {
        {kRequestXml, "<request type=\"foo\"/>", "foo"},
        {kRequestXml, "not xml at all", ""},
        {kRequestXml, "", ""},
        {kRequestXml, "<other type=\"events\"/>", ""},
        {kDeliverXml, "<something/>", "expected <session> or <configurations>"},
        {kDeliverXml, "<session version=\"1\" buffer_mode=\"bogus\"/>", "buffer_mode"},
        {kDeliverXml, "<configurations revision=\"7\"/>", "revision"},
        {kDeliverXml, std::string("\x00\x01\x02", 3), ""},
    };
    for (const auto& p : probes) {
        auto r = c.request(p.code, p.body);
        ASSERT_TRUE(r) << p.body;
        EXPECT_EQ(r->code, kNak) << p.body;
        EXPECT_FALSE(r->body.empty()) << p.body;
        if (!p.needle.empty()) {
            EXPECT_NE(r->body.find(p.needle), std::string::npos) << r->body;
        }
    }
    auto r = c.request(kPing);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kAck);
}

TEST_F(ServeTest, SloppyRequestsAreAnswered) {
    HostClient c = client();
    for (const char* req : {"<request type=counters/>", "<request type='events'></request>",
                            "<request type=\"captured\">", "  <request type=defaults />\n"}) {
        auto r = c.request(kRequestXml, req);
        ASSERT_TRUE(r) << req;
        EXPECT_EQ(r->code, kXml) << req << ": " << r->body;
    }
}

TEST_F(ServeTest, HandshakeWithCarriageReturnsAndNul) {
    for (const std::string& lines :
         {std::string("noise\rVERSION 680\r\nSTREAMLINE\r\n"), std::string("STREAMLINE\0", 11),
          std::string("VERSION 680\0STREAMLINE\r", 23)}) {
        auto c = HostClient::connect(port_);
        ASSERT_TRUE(c);
        EXPECT_EQ(c->handshake(lines), std::optional<std::string>("GATOR 680\n"));
        auto r = c->request(kPing);  // no stray terminator byte was taken for a command
        ASSERT_TRUE(r);
        EXPECT_EQ(r->code, kAck);
    }
}

TEST_F(ServeTest, StopWithoutCaptureSendsEndOfSequenceAndCloses) {
    HostClient c = client();
    auto r = c.request(kApcStop);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kApcData);
    EXPECT_TRUE(r->body.empty());
    EXPECT_TRUE(c.wait_closed());
    expect_serving();
}

TEST_F(ServeTest, DisconnectClosesWithoutReply) {
    HostClient c = client();
    ASSERT_TRUE(c.send_command(kDisconnect));
    EXPECT_FALSE(c.read(std::chrono::milliseconds(500)));
    expect_serving();
}

}  // namespace
}  // namespace apcgate::e2e
