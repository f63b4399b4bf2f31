// One capture at a time, clients that vanish, and signals: the running capture is never
// disturbed by others, the daemon serves on, and nothing leaks over many cycles.
#include <thread>

#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

TEST_F(ServeTest, SecondClientDuringCaptureMayPingAndRequestButNotStart) {
    HostClient a = client();
    auto captured_xml = a.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    ASSERT_TRUE(a.send_command(kApcStart));
    StreamResult before = read_frames(a, 1);
    ASSERT_FALSE(before.frames.empty());

    HostClient b = client();
    auto r = b.request(kPing);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kAck);
    r = b.request_xml("counters");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kXml);
    r = b.request(kApcStart);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, kError);
    EXPECT_EQ(r->body, "capture in progress");
    EXPECT_TRUE(b.wait_closed());

    StreamResult during = read_frames(a, 1);
    EXPECT_FALSE(during.frames.empty());  // still streaming
    ASSERT_TRUE(a.send_command(kApcStop));
    StreamResult rest = read_stream(a, std::chrono::seconds(5));
    EXPECT_TRUE(rest.end_of_sequence);
    std::vector<std::string> frames = before.frames;
    frames.insert(frames.end(), during.frames.begin(), during.frames.end());
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    EXPECT_EQ(checked.summaries, 1U);
}

// Starts a capture on a fresh connection, retrying while the daemon has not yet noticed that
// the previous client vanished. Returns the number of retries, or -1 if it never started.
int start_capture_and_read_summary(int port, HostClient& out) {
    for (int attempt = 0; attempt < 200; ++attempt) {
        auto c = HostClient::connect(port);
        if (!c || !c->handshake()) return -1;
        if (!c->send_command(kApcStart)) return -1;
        auto r = c->read();
        if (!r) return -1;
        if (r->code == kApcData && !r->body.empty()) {
            out = std::move(*c);
            return attempt;
        }
        if (r->code != kError) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
}

TEST_F(ServeTest, TwoHundredAbruptDisconnectsLeakNothing) {
    auto cycle = [&](int i) {
        HostClient c;
        ASSERT_GE(start_capture_and_read_summary(port_, c), 0) << "cycle " << i << "\n"
                                                               << daemon_->log();
        if (i % 2 == 0) {
            c.abort();  // RST
        } else {
            c.close();  // FIN without a stop
        }
    };
    // Warm up (allocator arenas, first capture's one-time work), then measure.
    for (int i = 0; i < 20; ++i) cycle(i);
    expect_serving();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const int fds_before = daemon_->open_fds();
    const long rss_before = daemon_->rss_kib();
    for (int i = 20; i < 220; ++i) cycle(i);
    expect_serving();
    // Connections are released once the daemon has seen each close.
    int fds_after = 0;
    for (int i = 0; i < 100; ++i) {
        fds_after = daemon_->open_fds();
        if (fds_after <= fds_before) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_LE(fds_after, fds_before);
    const long rss_after = daemon_->rss_kib();
#if defined(__SANITIZE_ADDRESS__)
    // ASan's quarantine holds freed memory back on purpose: RSS says nothing about leaks there
    // (LeakSanitizer checks those when the daemon exits).
    (void)rss_after;
#else
    EXPECT_LT(rss_after - rss_before, 4096)
        << "RSS grew from " << rss_before << " KiB to " << rss_after;
#endif
    RecordProperty("rss_before_kib", std::to_string(rss_before));
    RecordProperty("rss_after_kib", std::to_string(rss_after));
}

TEST_F(ServeTest, SigtermEndsARunningCaptureCleanly) {
    HostClient c = client();
    ASSERT_TRUE(c.send_command(kApcStart));
    StreamResult before = read_frames(c, 1);
    ASSERT_FALSE(before.frames.empty());
    daemon_->signal(SIGTERM);
    StreamResult rest = read_stream(c, std::chrono::seconds(5));
    EXPECT_TRUE(rest.end_of_sequence);
    EXPECT_TRUE(c.wait_closed());
    EXPECT_EQ(daemon_->wait(), std::optional<int>(0)) << daemon_->log();
}

}  // namespace
}  // namespace apcgate::e2e
