// Starts a real `apcgate serve` on 127.0.0.1 (a free port, its own state directory) per test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "capture_check.hpp"
#include "daemon_process.hpp"
#include "host_client.hpp"

namespace apcgate::e2e {

class ServeTest : public ::testing::Test {
  protected:
    void SetUp() override { start(); }
    void TearDown() override {
        if (daemon_ && daemon_->running()) {
            daemon_->signal(SIGTERM);
            const auto rc = daemon_->wait();
            EXPECT_EQ(rc, std::optional<int>(0)) << daemon_->log();
        }
    }
    void start(std::vector<std::string> extra = {}) {
        state_ = temp_dir("state");
        std::vector<std::string> args{"serve",       "--listen",      "127.0.0.1",   "--port", "0",
                                      "--state-dir", state_.string(), "--log-level", "debug"};
        args.insert(args.end(), extra.begin(), extra.end());
        daemon_ = std::make_unique<DaemonProcess>(args);
        const auto port = daemon_->wait_for_port();
        ASSERT_TRUE(port) << daemon_->log();
        port_ = *port;
    }
    // A connected client past the handshake.
    HostClient client() {
        auto c = HostClient::connect(port_);
        EXPECT_TRUE(c) << "connect failed";
        if (!c) return {};
        EXPECT_EQ(c->handshake(), std::optional<std::string>(handshake_reply_));
        return std::move(*c);
    }
    // One whole capture of the daemon's sources on a fresh client: the captured XML, APC Start,
    // the frames until the end of sequence (the capture ends by itself once `--source` inputs
    // are read), every frame decoded and checked against the frame rules (violations fail the
    // test here).
    CheckedCapture capture_to_end(std::chrono::seconds timeout) {
        HostClient c = client();
        auto captured_xml = c.request_xml("captured");
        EXPECT_TRUE(captured_xml) << daemon_->log();
        if (!captured_xml) return {};
        auto captured = xml::parse_captured(captured_xml->body);
        EXPECT_TRUE(captured) << captured_xml->body;
        if (!captured) return {};
        EXPECT_TRUE(c.send_command(kApcStart));
        const StreamResult all = read_stream(c, timeout);
        EXPECT_TRUE(all.end_of_sequence) << daemon_->log();
        CheckedCapture checked = check_capture(all.frames, *captured);
        for (const auto& e : checked.errors) ADD_FAILURE() << e;
        return checked;
    }
    // The daemon still answers a fresh connection.
    void expect_serving() {
        HostClient c = client();
        auto r = c.request(kPing);
        ASSERT_TRUE(r) << daemon_->log();
        EXPECT_EQ(r->code, kAck);
    }

    // A client (past its handshake) that starts a fast capture and stops reading: the daemon
    // must stop the capture once --max-send-backlog is queued, send whole frames, then an Error
    // saying why (on a frame boundary), close, keep serving others, and give most of the
    // queue's memory back. Both framings behave so; `start` must have given the backlog limit.
    void expect_a_non_reading_client_dropped(HostClient& c) {
        const long baseline = daemon_->rss_kib();
        const std::string session =
            "<session version=\"1\" buffer_mode=\"streaming\" sample_rate=\"high\" "
            "call_stack_unwinding=\"yes\" duration=\"0\" live_rate=\"10\"/>";
        auto ack = c.request(kDeliverXml, session);
        ASSERT_TRUE(ack);
        ASSERT_EQ(ack->code, kAck);
        ASSERT_TRUE(c.send_command(kApcStart));
        // Not reading: the queue grows until the daemon gives up on this client.
        long peak = baseline;
        for (int i = 0; i < 1200 && occurrences("client is not reading") == 0; ++i) {
            peak = std::max(peak, daemon_->rss_kib());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ASSERT_EQ(occurrences("client is not reading"), 1U) << daemon_->log();
        // Now read: whole frames, then the Error, then the end of the connection.
        std::size_t frames = 0;
        std::optional<Response> last;
        // The daemon stops the capture before it writes on: that drains the kernel's last
        // records, which takes long in a sanitizer build.
        while (auto r = c.read(std::chrono::seconds(60))) {
            if (r->code == kApcData && !r->body.empty()) {
                ++frames;
                continue;
            }
            last = std::move(r);
            break;
        }
        EXPECT_GT(frames, 0U);
        ASSERT_TRUE(last) << "the stream ended without an Error after " << frames << " frames\n"
                          << daemon_->log();
        EXPECT_EQ(last->code, kError);
        EXPECT_NE(last->body.find("client not reading"), std::string::npos) << last->body;
        EXPECT_TRUE(c.wait_closed());
        for (int i = 0; i < 500 && occurrences("connection released") < 1; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        expect_serving();
        const long after = daemon_->rss_kib();
        RecordProperty("rss_baseline_kib", std::to_string(baseline));
        RecordProperty("rss_peak_kib", std::to_string(peak));
        RecordProperty("rss_after_kib", std::to_string(after));
#if !defined(__SANITIZE_ADDRESS__)  // ASan's quarantine keeps freed memory on purpose
        // Most of what the queue took is given back.
        EXPECT_LT(after - baseline, (peak - baseline) / 2)
            << "baseline " << baseline << " KiB, peak " << peak << " KiB, after " << after
            << " KiB";
#endif
    }
    // How often `needle` is in the daemon's log.
    std::size_t occurrences(const std::string& needle) const {
        const std::string text = daemon_->log();
        std::size_t n = 0;
        for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
            ++n;
        return n;
    }

    std::unique_ptr<DaemonProcess> daemon_;
    // What the daemon answers the handshake: "GATOR 950\n" with --framing perf.
    std::string handshake_reply_ = "GATOR 680\n";
    std::filesystem::path state_;
    int port_ = 0;
};

inline constexpr const char* kSession =
    "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n"
    "<session version=\"1\" call_stack_unwinding=\"yes\" parse_debug_info=\"yes\" "
    "high_resolution=\"no\" buffer_mode=\"streaming\" sample_rate=\"low\" duration=\"0\" "
    "target_host=\"127.0.0.1\" target_port=\"8080\" live_rate=\"50\">\n"
    "  <energy_capture version=\"1\" type=\"none\"/>\n</session>\n";

}  // namespace apcgate::e2e
