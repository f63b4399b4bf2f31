// Clients that hold connections (issue 27): sockets that take every slot, handshakes that
// trickle in, idle connections, and a client that stops reading during a capture. Streamline
// must always get in, and the daemon's memory must come back.
#include <atomic>
#include <thread>

#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

// Sends one byte of "VERSION 680\n" after another to each socket, never "STREAMLINE": a
// slowloris handshake. Stops (and joins) when destroyed.
class Trickler {
  public:
    Trickler(std::vector<HostClient*> sockets, std::chrono::milliseconds every)
        : thread_([this, sockets = std::move(sockets), every] {
              const std::string line = "VERSION 680\n";
              for (std::size_t i = 0; !stop_; ++i) {
                  for (HostClient* s : sockets) (void)s->send_raw(line.substr(i % line.size(), 1));
                  std::this_thread::sleep_for(every);
              }
          }) {}
    ~Trickler() {
        stop_ = true;
        thread_.join();
    }
    Trickler(const Trickler&) = delete;
    Trickler& operator=(const Trickler&) = delete;

  private:
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

class HostileClientTest : public ServeTest {
  protected:
    void SetUp() override {}  // each test starts the daemon with its own options
    // Waits until the daemon has accepted `n` connections in all (its log says so).
    void wait_connected(std::size_t n) {
        for (int i = 0; i < 500 && count(daemon_->log(), ": connected") < n; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ASSERT_GE(count(daemon_->log(), ": connected"), n) << daemon_->log();
    }
};

// Every slot (the default 16) held by sockets that send nothing or trickle a handshake that
// never ends: Streamline still gets in, at once.
TEST_F(HostileClientTest, SlotsHeldByIdleAndTricklingSocketsDoNotKeepAClientOut) {
    start();
    std::vector<HostClient> idle;
    std::vector<HostClient> trickling;
    for (int i = 0; i < 8; ++i) {
        auto a = HostClient::connect(port_);
        auto b = HostClient::connect(port_);
        ASSERT_TRUE(a && b);
        idle.push_back(std::move(*a));
        trickling.push_back(std::move(*b));
    }
    std::vector<HostClient*> trickle_to;
    trickle_to.reserve(trickling.size());
    for (auto& t : trickling) trickle_to.push_back(&t);
    Trickler trickler(trickle_to, std::chrono::milliseconds(100));
    wait_connected(16);
    std::vector<HostClient> admitted;  // kept open: each newcomer finds every slot taken
    for (int i = 0; i < 3; ++i) {
        auto c = HostClient::connect(port_);
        ASSERT_TRUE(c);
        ASSERT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n")) << daemon_->log();
        auto r = c->request_xml("counters");
        ASSERT_TRUE(r) << daemon_->log();
        EXPECT_EQ(r->code, kXml);
        admitted.push_back(std::move(*c));
    }
    // The oldest sockets that never finished a handshake made room.
    EXPECT_GE(count(daemon_->log(), "closed to make room for a new connection (no handshake"), 3U)
        << daemon_->log();
}

// Connections that finished the handshake and then sit idle hold every slot: the longest idle
// one makes room, and the capture's connection is never the one.
TEST_F(HostileClientTest, TheLongestIdleConnectionMakesRoomButACaptureNever) {
    start({"--max-connections", "3"});
    HostClient capture = client();
    ASSERT_TRUE(capture.send_command(kApcStart));
    ASSERT_FALSE(read_frames(capture, 1).frames.empty());
    HostClient older = client();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    HostClient newer = client();
    auto r = newer.request(kPing);
    ASSERT_TRUE(r);
    HostClient newcomer = client();
    auto ping = newcomer.request(kPing);
    ASSERT_TRUE(ping) << daemon_->log();
    EXPECT_EQ(ping->code, kAck);
    // The one idle longest made room; the one used since still is served.
    auto evicted = older.read();
    ASSERT_TRUE(evicted) << daemon_->log();
    EXPECT_EQ(evicted->code, kError);
    EXPECT_NE(evicted->body.find("closed to make room"), std::string::npos) << evicted->body;
    EXPECT_TRUE(older.wait_closed());
    ping = newer.request(kPing);
    ASSERT_TRUE(ping) << daemon_->log();
    EXPECT_EQ(ping->code, kAck);
    // The capture streams on and ends cleanly.
    EXPECT_FALSE(read_frames(capture, 1).frames.empty());
    ASSERT_TRUE(capture.send_command(kApcStop));
    EXPECT_TRUE(read_stream(capture, std::chrono::seconds(5)).end_of_sequence) << daemon_->log();
}

// A handshake sent a byte at a time ends at the handshake deadline (10 s by default) however
// long the trickle goes on: the deadline is for the whole handshake, not per byte.
TEST_F(HostileClientTest, ATrickledHandshakeIsCutAtTheDeadline) {
    start();
    auto c = HostClient::connect(port_);
    ASSERT_TRUE(c);
    std::optional<Response> r;
    {
        Trickler trickler({&*c}, std::chrono::milliseconds(200));
        r = c->read(std::chrono::seconds(30));
    }
    ASSERT_TRUE(r) << daemon_->log();
    EXPECT_EQ(r->code, kError);
    EXPECT_NE(r->body.find("handshake not completed within 10 s"), std::string::npos) << r->body;
    EXPECT_TRUE(c->wait_closed());
}

// --idle-timeout closes a connection that sends no command; a capture that only streams (no
// pings, as Streamline keeps it) goes on past it.
TEST_F(HostileClientTest, IdleConnectionsCloseButAQuietCaptureDoesNot) {
    start({"--idle-timeout", "1"});
    HostClient capture = client();
    ASSERT_TRUE(capture.send_command(kApcStart));
    HostClient idle = client();
    auto r = idle.read(std::chrono::seconds(20));
    ASSERT_TRUE(r) << daemon_->log();
    EXPECT_EQ(r->code, kError);
    EXPECT_NE(r->body.find("no command within 1 s"), std::string::npos) << r->body;
    EXPECT_TRUE(idle.wait_closed());
    // The capture has been quiet for longer than the idle timeout by now and streams on.
    const StreamResult streamed = read_stream(capture, std::chrono::milliseconds(1500));
    EXPECT_FALSE(streamed.end_of_sequence);
    EXPECT_FALSE(streamed.frames.empty());
    EXPECT_TRUE(streamed.other.empty());
    ASSERT_TRUE(capture.send_command(kApcStop));
    EXPECT_TRUE(read_stream(capture, std::chrono::seconds(5)).end_of_sequence) << daemon_->log();
}

// A client that stops reading in the middle of a fast capture: the daemon stops the capture
// when the --max-send-backlog is queued, ends what it sends with an Error saying why (after the
// frame it was writing: on a frame boundary) and gives the memory back.
TEST_F(HostileClientTest, AClientThatStopsReadingGetsAnErrorAndTheMemoryComesBack) {
    start({"--max-send-backlog", "8"});
    HostClient c = client();
    expect_a_non_reading_client_dropped(c);
}

}  // namespace
}  // namespace apcgate::e2e
