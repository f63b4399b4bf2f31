// How the settings file and the command line combine, and what a SIGHUP cannot change.
#include <gtest/gtest.h>

#include "daemon/server/serve_supervisor.hpp"

namespace apcgate::daemon {
namespace {

ServiceConfig everything() {
    ServiceConfig f;
    f.port = 9000;
    f.listen = "127.0.0.1";
    f.sources = std::vector<std::string>{"fxt:/x.fxt"};
    f.binary = "/bin/prog";
    f.debug_dirs = std::vector<std::string>{"/dbg", "/more dbg"};
    f.log_level = "debug";
    f.discovery = false;
    f.discovery_ports = std::vector<std::uint16_t>{4000};
    f.max_connections = 3;
    f.handshake_timeout_s = 2;
    f.idle_timeout_s = 0;
    f.max_send_backlog_mib = 5;
    return f;
}

TEST(ServeMerge, TheFileFillsWhatTheCommandLineLeftOut) {
    const ServeOptions o = merge_service_config(ServeOptions{}, everything());
    EXPECT_EQ(o.server.port, 9000);
    EXPECT_EQ(o.server.listen, "127.0.0.1");
    EXPECT_EQ(o.sources, std::vector<std::string>{"fxt:/x.fxt"});
    EXPECT_EQ(o.binaries, std::vector<std::filesystem::path>{"/bin/prog"});
    EXPECT_EQ(o.debug_dirs, (std::vector<std::filesystem::path>{"/dbg", "/more dbg"}));
    EXPECT_EQ(o.log_level, "debug");
    EXPECT_FALSE(o.discovery);
    EXPECT_EQ(o.discovery_ports, std::vector<std::uint16_t>{4000});
    EXPECT_EQ(o.server.max_connections, 3U);
    EXPECT_EQ(o.server.limits.handshake_timeout, std::chrono::seconds(2));
    EXPECT_EQ(o.server.limits.idle_timeout, std::chrono::seconds(0));
    EXPECT_EQ(o.server.limits.max_send_backlog, 5U << 20);
}

TEST(ServeMerge, OptionsGivenOnTheCommandLineWin) {
    ServeOptions cli;
    cli.server.port = 1234;
    cli.server.listen = "::1";
    cli.sources = {"ctf:/t"};
    cli.binaries = {"/bin/other"};
    cli.debug_dirs = {"/cli-dbg"};
    cli.log_level = "warn";
    cli.discovery = true;
    cli.server.max_connections = 7;
    cli.server.limits.handshake_timeout = std::chrono::seconds(4);
    cli.server.limits.idle_timeout = std::chrono::seconds(40);
    cli.server.limits.max_send_backlog = 9U << 20;
    cli.discovery_ports = {40000};
    cli.given = {"--port",
                 "--listen",
                 "--source",
                 "--binary",
                 "--log-level",
                 "--no-discovery",
                 "--max-connections",
                 "--discovery-port",
                 "--debug-dir",
                 "--handshake-timeout",
                 "--idle-timeout",
                 "--max-send-backlog"};
    const ServeOptions o = merge_service_config(cli, everything());
    EXPECT_EQ(o.server.port, 1234);
    EXPECT_EQ(o.server.listen, "::1");
    EXPECT_EQ(o.sources, std::vector<std::string>{"ctf:/t"});
    EXPECT_EQ(o.binaries, std::vector<std::filesystem::path>{"/bin/other"});
    EXPECT_EQ(o.debug_dirs, std::vector<std::filesystem::path>{"/cli-dbg"});
    EXPECT_EQ(o.log_level, "warn");
    EXPECT_TRUE(o.discovery);
    EXPECT_EQ(o.discovery_ports, std::vector<std::uint16_t>{40000});
    EXPECT_EQ(o.server.max_connections, 7U);
    EXPECT_EQ(o.server.limits.handshake_timeout, std::chrono::seconds(4));
    EXPECT_EQ(o.server.limits.idle_timeout, std::chrono::seconds(40));
    EXPECT_EQ(o.server.limits.max_send_backlog, 9U << 20);
}

TEST(ServeMerge, UnsetFileKeysKeepTheCommandLineValues) {
    ServeOptions cli;
    cli.server.port = 4321;
    const ServeOptions o = merge_service_config(cli, ServiceConfig{});
    EXPECT_EQ(o.server.port, 4321);
    EXPECT_EQ(o.server.listen, "::");
    EXPECT_TRUE(o.discovery);
    // gatord's UDP_REQ_PORT, and the port Streamline has been seen asking on.
    EXPECT_EQ(o.discovery_ports, (std::vector<std::uint16_t>{30001, 30003}));
    EXPECT_EQ(o.debug_dirs, std::vector<std::filesystem::path>{"/usr/lib/debug"});  // gdb's
}

TEST(ServeMerge, PortListenDiscoveryAndLimitNeedARestart) {
    const ServeOptions running;
    EXPECT_TRUE(settings_needing_restart(running, running).empty());
    ServeOptions wanted = merge_service_config(running, everything());
    EXPECT_EQ(settings_needing_restart(running, wanted),
              (std::vector<std::string>{"APCGATE_PORT", "APCGATE_LISTEN", "APCGATE_DISCOVERY",
                                        "APCGATE_DISCOVERY_PORT", "APCGATE_MAX_CONNECTIONS",
                                        "APCGATE_HANDSHAKE_TIMEOUT", "APCGATE_IDLE_TIMEOUT",
                                        "APCGATE_MAX_SEND_BACKLOG"}));
    // Log level and sources are applied live: not listed.
    ServeOptions live = running;
    live.log_level = "debug";
    live.sources = {"x"};
    EXPECT_TRUE(settings_needing_restart(running, live).empty());
}

TEST(ServeMerge, FramingComesFromTheFileUnlessGivenAndNeedsARestart) {
    ServiceConfig f;
    f.framing = Framing::Perf;
    EXPECT_EQ(merge_service_config(ServeOptions{}, f).server.framing, Framing::Perf);
    ServeOptions cli;
    cli.given = {"--framing"};
    EXPECT_EQ(merge_service_config(cli, f).server.framing, Framing::Gator);
    ServeOptions running, wanted;
    wanted.server.framing = Framing::Perf;
    EXPECT_EQ(settings_needing_restart(running, wanted),
              std::vector<std::string>{"APCGATE_FRAMING"});
}

}  // namespace
}  // namespace apcgate::daemon
