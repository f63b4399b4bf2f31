// The settings file of the service: read at start (the command line wins), re-read on SIGHUP
// (log level and sources apply, the rest is reported as needing a restart, a bad file changes
// nothing), with RELOADING=1 / READY=1 around it.
#include <gtest/gtest.h>

#include <csignal>

#include "capture_check.hpp"
#include "host_client.hpp"
#include "notify_listener.hpp"
#include "service_support.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::service_test {
namespace {

using namespace std::chrono_literals;
using e2e::DaemonProcess;
using e2e::HostClient;
using e2e::temp_dir;

constexpr const char* kLoopbackNoDiscovery =
    "APCGATE_LISTEN=127.0.0.1\nAPCGATE_PORT=0\nAPCGATE_DISCOVERY=no\n";

std::optional<std::string> counters_xml(int port) {
    auto c = HostClient::connect(port);
    if (!c || !c->handshake()) return std::nullopt;
    auto r = c->request_xml("counters");
    if (!r || r->code != e2e::kXml) return std::nullopt;
    return r->body;
}

bool pings(int port) {
    auto c = HostClient::connect(port);
    if (!c || !c->handshake()) return false;
    auto r = c->request(e2e::kPing);
    return r && r->code == e2e::kAck;
}

class ServiceReload : public ::testing::Test {
  protected:
    void start(const std::string& settings, std::vector<std::string> extra = {}) {
        dir_ = temp_dir("conf");
        conf_ = dir_ / "apcgate";
        write_file(conf_, settings);
        std::vector<std::string> args{"serve", "--config-file", conf_.string(), "--state-dir",
                                      (dir_ / "state").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        ScopedEnv env("NOTIFY_SOCKET", systemd_.path());
        d_ = std::make_unique<DaemonProcess>(args);
        const auto port = d_->wait_for_port();
        ASSERT_TRUE(port) << d_->log();
        port_ = *port;
        ASSERT_TRUE(systemd_.wait_for("READY=1")) << d_->log();
    }
    // Rewrites the file, sends SIGHUP and waits until the daemon is READY again.
    void reload(const std::string& settings) {
        write_file(conf_, settings);
        d_->signal(SIGHUP);
        ASSERT_TRUE(systemd_.wait_for("RELOADING=1")) << d_->log();
        ASSERT_TRUE(systemd_.wait_for("READY=1")) << d_->log();
    }
    void TearDown() override {
        if (d_ && d_->running()) {
            d_->signal(SIGTERM);
            EXPECT_EQ(d_->wait(), std::optional<int>(0)) << d_->log();
        }
    }

    NotifyListener systemd_;
    std::filesystem::path dir_;
    std::filesystem::path conf_;
    std::unique_ptr<DaemonProcess> d_;
    int port_ = 0;
};

TEST_F(ServiceReload, FileSettingsApplyAtStartAndTheCommandLineWins) {
    // The file says warn; --log-level debug on the command line beats it.
    start(std::string(kLoopbackNoDiscovery) + "APCGATE_LOG_LEVEL=warn\n", {"--log-level", "debug"});
    const std::string log = d_->log();
    EXPECT_NE(log.find("listening on [127.0.0.1]:"), std::string::npos) << log;
    EXPECT_NE(log.find("discovery: off"), std::string::npos) << log;  // an info line: not warn
    ASSERT_TRUE(pings(port_));
    EXPECT_TRUE(d_->wait_for_log("Ping")) << d_->log();  // a debug line
}

TEST_F(ServiceReload, SighupAppliesTheLogLevelAndNamesWhatNeedsARestart) {
    start(std::string(kLoopbackNoDiscovery) + "APCGATE_LOG_LEVEL=info\n");
    ASSERT_TRUE(pings(port_));
    ASSERT_TRUE(pings(port_));
    EXPECT_EQ(d_->log().find("Ping"), std::string::npos);  // debug lines are off
    reload(
        "APCGATE_LISTEN=127.0.0.1\nAPCGATE_PORT=1\nAPCGATE_DISCOVERY=no\n"
        "APCGATE_LOG_LEVEL=debug\nAPCGATE_MAX_CONNECTIONS=2\n");
    const std::string log = d_->log();
    EXPECT_NE(log.find("SIGHUP: log level now debug"), std::string::npos) << log;
    EXPECT_NE(log.find("SIGHUP: APCGATE_PORT changed; it applies after a restart"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("SIGHUP: APCGATE_MAX_CONNECTIONS changed"), std::string::npos) << log;
    EXPECT_EQ(log.find("APCGATE_LISTEN changed"), std::string::npos) << log;  // unchanged
    ASSERT_TRUE(pings(port_));                           // still on the old port
    EXPECT_TRUE(d_->wait_for_log("Ping")) << d_->log();  // debug lines are on now
}

TEST_F(ServiceReload, ABadFileOnSighupKeepsTheRunningSettings) {
    start(std::string(kLoopbackNoDiscovery) + "APCGATE_LOG_LEVEL=info\n");
    reload("APCGATE_LOG_LEVEL=debug\nAPCGATE_PORT=not-a-port\n");
    const std::string log = d_->log();
    EXPECT_NE(log.find("line 2"), std::string::npos) << log;
    EXPECT_NE(log.find("keeping the running settings"), std::string::npos) << log;
    EXPECT_EQ(log.find("log level now debug"), std::string::npos) << log;
    EXPECT_TRUE(pings(port_));
    reload(
        "");  // an empty file: every setting back to its default... except those needing a restart
    EXPECT_TRUE(pings(port_));
}

std::string barman_trace() {
    return std::string(apcgate::test_paths::testdata_dir()) + "/barman/barman64le_linear.raw";
}

TEST_F(ServiceReload, SighupSwapsSourcesOnTheSamePort) {
    start(std::string(kLoopbackNoDiscovery));
    const auto live = counters_xml(port_);
    ASSERT_TRUE(live);
    EXPECT_NE(live->find("Linux_cpu_user"), std::string::npos);
    reload(std::string(kLoopbackNoDiscovery) + "APCGATE_SOURCES=\"barman:" + barman_trace() +
           "\"\n");
    EXPECT_TRUE(d_->wait_for_log("sources reloaded (1 trace inputs): listening on [127.0.0.1]:" +
                                 std::to_string(port_)))
        << d_->log();
    const auto traced = counters_xml(port_);
    ASSERT_TRUE(traced) << d_->log();
    EXPECT_EQ(traced->find("Linux_cpu_user"), std::string::npos) << *traced;
    EXPECT_NE(*traced, *live);
    // And back to live data.
    reload(std::string(kLoopbackNoDiscovery) + "APCGATE_SOURCES=\n");
    EXPECT_TRUE(d_->wait_for_log("sources reloaded (live)")) << d_->log();
    const auto again = counters_xml(port_);
    ASSERT_TRUE(again);
    EXPECT_NE(again->find("Linux_cpu_user"), std::string::npos);
}

TEST_F(ServiceReload, NewSourcesWaitForTheRunningCaptureToEnd) {
    start(std::string(kLoopbackNoDiscovery));
    auto c = HostClient::connect(port_);
    ASSERT_TRUE(c && c->handshake());
    ASSERT_TRUE(c->send_command(e2e::kApcStart));
    EXPECT_TRUE(next_frame(*c)) << d_->log();
    reload(std::string(kLoopbackNoDiscovery) + "APCGATE_SOURCES=\"barman:" + barman_trace() +
           "\"\n");
    EXPECT_TRUE(d_->wait_for_log("new sources apply when the running capture ends")) << d_->log();
    // The capture is not disturbed: it streams on, and the sources are still the live ones.
    EXPECT_TRUE(next_frame(*c)) << d_->log();
    EXPECT_EQ(d_->log().find("sources reloaded"), std::string::npos);
    const auto during = counters_xml(port_);
    ASSERT_TRUE(during);
    EXPECT_NE(during->find("Linux_cpu_user"), std::string::npos);
    ASSERT_TRUE(c->send_command(e2e::kApcStop));
    EXPECT_TRUE(e2e::read_stream(*c, 5s).end_of_sequence);
    EXPECT_TRUE(d_->wait_for_log("sources reloaded (1 trace inputs)")) << d_->log();
    const auto after = counters_xml(port_);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->find("Linux_cpu_user"), std::string::npos);
}

TEST_F(ServiceReload, SourcesThatDoNotOpenAreReportedAndTheOldOnesStay) {
    start(std::string(kLoopbackNoDiscovery));
    reload(std::string(kLoopbackNoDiscovery) + "APCGATE_SOURCES=barman:/nonexistent/trace.raw\n");
    EXPECT_TRUE(d_->wait_for_log("SIGHUP: sources not changed: ")) << d_->log();
    const auto xml = counters_xml(port_);
    ASSERT_TRUE(xml);
    EXPECT_NE(xml->find("Linux_cpu_user"), std::string::npos);
}

TEST_F(ServiceReload, ABadFileAtStartIsInvalidInput) {
    dir_ = temp_dir("conf");
    conf_ = dir_ / "apcgate";
    write_file(conf_, "APCGATE_LISTEN=\"unterminated\n");
    DaemonProcess d(
        {"serve", "--config-file", conf_.string(), "--state-dir", (dir_ / "state").string()});
    EXPECT_EQ(d.wait(), std::optional<int>(3)) << d.log();
    EXPECT_NE(d.log().find("unterminated double quote"), std::string::npos) << d.log();
}

TEST_F(ServiceReload, SighupWithoutAConfigFileSaysSoAndServesOn) {
    ScopedEnv env("NOTIFY_SOCKET", systemd_.path());
    d_ = std::make_unique<DaemonProcess>(serve_args(temp_dir("state"), {"--no-discovery"}));
    const auto port = d_->wait_for_port();
    ASSERT_TRUE(port) << d_->log();
    d_->signal(SIGHUP);
    EXPECT_TRUE(d_->wait_for_log("SIGHUP: no --config-file to re-read")) << d_->log();
    EXPECT_TRUE(pings(*port));
}

}  // namespace
}  // namespace apcgate::service_test
