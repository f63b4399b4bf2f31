// Starts a real `apcgate serve` on 127.0.0.1 (a free port, its own state directory) per test.
#pragma once

#include <gtest/gtest.h>

#include <csignal>
#include <memory>

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
        std::vector<std::string> args{"serve", "--listen", "127.0.0.1", "--port", "0",
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
        EXPECT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n"));
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

    std::unique_ptr<DaemonProcess> daemon_;
    std::filesystem::path state_;
    int port_ = 0;
};

inline const char* kSession =
    "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n"
    "<session version=\"1\" call_stack_unwinding=\"yes\" parse_debug_info=\"yes\" "
    "high_resolution=\"no\" buffer_mode=\"streaming\" sample_rate=\"low\" duration=\"0\" "
    "target_host=\"127.0.0.1\" target_port=\"8080\" live_rate=\"50\">\n"
    "  <energy_capture version=\"1\" type=\"none\"/>\n</session>\n";

}  // namespace apcgate::e2e
