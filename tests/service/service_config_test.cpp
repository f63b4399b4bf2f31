// The settings file (/etc/default/apcgate): shell-compatible KEY=value lines, parsed not sourced.
#include "daemon/service/service_config.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "daemon/server/connection.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::daemon {
namespace {

Result<ServiceConfig> parse(std::string_view text) {
    return parse_service_config(text, "test.conf");
}

TEST(ServiceConfig, EveryKeyIsRead) {
    auto c = parse(
        "APCGATE_PORT=9000\nAPCGATE_LISTEN=127.0.0.1\nAPCGATE_SOURCES=\"fxt:/a.fxt  /b c\"\n"
        "APCGATE_BINARY=/bin/x\nAPCGATE_LOG_LEVEL=debug\nAPCGATE_DISCOVERY=no\n"
        "APCGATE_MAX_CONNECTIONS=4\nAPCGATE_DISCOVERY_PORT=30003\n"
        "APCGATE_DEBUG_DIRS=\"/usr/lib/debug /opt/dbg\"\n"
        "APCGATE_HANDSHAKE_TIMEOUT=3\nAPCGATE_IDLE_TIMEOUT=0\nAPCGATE_MAX_SEND_BACKLOG=8\n");
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->port, std::optional<std::uint16_t>(9000));
    EXPECT_EQ(c->listen, std::optional<std::string>("127.0.0.1"));
    ASSERT_TRUE(c->sources);
    EXPECT_EQ(*c->sources, (std::vector<std::string>{"fxt:/a.fxt", "/b", "c"}));
    EXPECT_EQ(c->binary, std::optional<std::string>("/bin/x"));
    EXPECT_EQ(c->debug_dirs, std::optional(std::vector<std::string>{"/usr/lib/debug", "/opt/dbg"}));
    EXPECT_EQ(c->log_level, std::optional<std::string>("debug"));
    EXPECT_EQ(c->discovery, std::optional<bool>(false));
    EXPECT_EQ(c->max_connections, std::optional<std::size_t>(4));
    EXPECT_EQ(c->discovery_ports, std::optional(std::vector<std::uint16_t>{30003}));
    EXPECT_EQ(c->handshake_timeout_s, std::optional<unsigned>(3));
    EXPECT_EQ(c->idle_timeout_s, std::optional<unsigned>(0));
    EXPECT_EQ(c->max_send_backlog_mib, std::optional<unsigned>(8));
    EXPECT_TRUE(c->warnings.empty());
}

TEST(ServiceConfig, ShellQuotingCommentsAndExportAreUnderstood) {
    auto c = parse(
        "# a comment\n\n   \t\n"
        "export APCGATE_LISTEN='::1'   # trailing comment\n"
        "APCGATE_BINARY=\"/opt/my \\\"app\\\"\"\n"
        "APCGATE_LOG_LEVEL=w'ar'n\n"
        "APCGATE_SOURCES=a#b\r\n");
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->listen, std::optional<std::string>("::1"));
    EXPECT_EQ(c->binary, std::optional<std::string>("/opt/my \"app\""));
    EXPECT_EQ(c->log_level, std::optional<std::string>("warn"));
    ASSERT_TRUE(c->sources);
    EXPECT_EQ(*c->sources, std::vector<std::string>{"a#b"});  // '#' inside a word is literal
    EXPECT_FALSE(c->port);
}

TEST(ServiceConfig, DiscoveryPortsAreAListSeparatedBySpacesOrCommas) {
    auto c = parse("APCGATE_DISCOVERY_PORT=\"30001, 30003 4000\"\n");
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->discovery_ports, std::optional(std::vector<std::uint16_t>{30001, 30003, 4000}));
}

TEST(ServiceConfig, AnEmptySourcesValueMeansLiveData) {
    auto c = parse("APCGATE_SOURCES=\"\"\n");
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->sources);
    EXPECT_TRUE(c->sources->empty());
}

TEST(ServiceConfig, UnknownKeysAreWarningsWithTheirLine) {
    auto c = parse("APCGATE_PORT=1\nAPCGATE_PROT=2\nDAEMON_OPTS=x\n");
    ASSERT_TRUE(c);
    ASSERT_EQ(c->warnings.size(), 2U);
    EXPECT_NE(c->warnings[0].find("line 2: unknown key APCGATE_PROT"), std::string::npos);
}

struct BadCase {
    const char* text;
    std::uint64_t offset;
    const char* record;
    const char* field;
    const char* message;
};

TEST(ServiceConfig, ErrorsNameTheFileLineOffsetAndKey) {
    const BadCase cases[] = {
        {"APCGATE_PORT=1\nAPCGATE_PORT=70000\n", 15, "line 2", "APCGATE_PORT", "expected a port"},
        {"APCGATE_PORT=-1\n", 0, "line 1", "APCGATE_PORT", "expected a port"},
        {"APCGATE_PORT=80a\n", 0, "line 1", "APCGATE_PORT", "expected a port"},
        {"\nAPCGATE_LISTEN=\"::\n", 16, "line 2", "APCGATE_LISTEN", "unterminated double"},
        {"APCGATE_LISTEN='::\n", 15, "line 1", "APCGATE_LISTEN", "unterminated single"},
        {"APCGATE_LISTEN=$HOST\n", 15, "line 1", "APCGATE_LISTEN", "substitution"},
        {"APCGATE_LISTEN=\"`id`\"\n", 16, "line 1", "APCGATE_LISTEN", "substitution"},
        {"APCGATE_LISTEN=a b\n", 17, "line 1", "APCGATE_LISTEN", "unquoted space"},
        {"APCGATE_LISTEN=\n", 0, "line 1", "APCGATE_LISTEN", "expected an address"},
        {"just words\n", 4, "line 1", "just", "expected KEY=value"},
        {"=value\n", 0, "line 1", "", "expected KEY=value"},
        {"APCGATE_DISCOVERY=maybe\n", 0, "line 1", "APCGATE_DISCOVERY", "yes or no"},
        {"APCGATE_LOG_LEVEL=loud\n", 0, "line 1", "APCGATE_LOG_LEVEL", "trace..off"},
        {"APCGATE_MAX_CONNECTIONS=0\n", 0, "line 1", "APCGATE_MAX_CONNECTIONS", "1..4096"},
        {"APCGATE_HANDSHAKE_TIMEOUT=3601\n", 0, "line 1", "APCGATE_HANDSHAKE_TIMEOUT", "0..3600"},
        {"APCGATE_IDLE_TIMEOUT=-1\n", 0, "line 1", "APCGATE_IDLE_TIMEOUT", "0..86400"},
        {"APCGATE_MAX_SEND_BACKLOG=0\n", 0, "line 1", "APCGATE_MAX_SEND_BACKLOG", "1..4096"},
        {"APCGATE_DISCOVERY_PORT=30001,x\n", 0, "line 1", "APCGATE_DISCOVERY_PORT", "port numbers"},
        {"APCGATE_DISCOVERY_PORT=0\n", 0, "line 1", "APCGATE_DISCOVERY_PORT", "port numbers"},
        {"APCGATE_DISCOVERY_PORT=\n", 0, "line 1", "APCGATE_DISCOVERY_PORT", "1 to 8 ports"},
        {"APCGATE_DISCOVERY_PORT=\"1 2 3 4 5 6 7 8 9\"\n", 0, "line 1", "APCGATE_DISCOVERY_PORT",
         "1 to 8 ports"},
        {"APCGATE_LISTEN=x\\", 16, "line 1", "APCGATE_LISTEN", "backslash at end"},
    };
    for (const auto& bc : cases) {
        auto c = parse(bc.text);
        ASSERT_FALSE(c.ok()) << bc.text;
        const Error& e = c.error();
        EXPECT_EQ(e.input, "test.conf");
        EXPECT_EQ(e.offset, std::optional<std::uint64_t>(bc.offset)) << bc.text;
        EXPECT_EQ(e.record, bc.record) << bc.text;
        EXPECT_EQ(e.field, bc.field) << bc.text;
        EXPECT_NE(e.message.find(bc.message), std::string::npos) << bc.text << ": " << e.message;
    }
}

TEST(ServiceConfig, OversizedFilesAreRefused) {
    const std::string big(kMaxServiceConfigBytes + 1, '#');
    auto c = parse(big);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("larger than"), std::string::npos);
}

TEST(ServiceConfig, TheShippedDefaultFileParsesToTheDefaults) {
    auto c = load_service_config(std::string(apcgate::test_paths::source_dir()) +
                                 "/systemd/apcgate.default");
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_TRUE(c->warnings.empty());
    EXPECT_EQ(c->port, std::optional<std::uint16_t>(8080));
    EXPECT_EQ(c->listen, std::optional<std::string>("::"));
    EXPECT_EQ(c->discovery, std::optional<bool>(true));
    ASSERT_TRUE(c->sources);
    EXPECT_TRUE(c->sources->empty());
    EXPECT_EQ(c->log_level, std::optional<std::string>("info"));
    EXPECT_EQ(c->max_connections, std::optional<std::size_t>(16));
    const ConnectionLimits defaults;
    EXPECT_EQ(c->handshake_timeout_s,
              std::optional<unsigned>(static_cast<unsigned>(defaults.handshake_timeout.count())));
    EXPECT_EQ(c->idle_timeout_s,
              std::optional<unsigned>(static_cast<unsigned>(defaults.idle_timeout.count())));
    EXPECT_EQ(c->max_send_backlog_mib,
              std::optional<unsigned>(static_cast<unsigned>(defaults.max_send_backlog >> 20)));
    EXPECT_FALSE(c->binary);           // commented out
    EXPECT_FALSE(c->debug_dirs);       // commented out: the built-in /usr/lib/debug
    EXPECT_FALSE(c->discovery_ports);  // commented out: the built-in 30001 and 30003
}

TEST(ServiceConfig, AMissingFileIsAnErrorNamingIt) {
    auto c = load_service_config("/nonexistent/apcgate.conf");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().to_string().find("/nonexistent/apcgate.conf"), std::string::npos);
}

TEST(ServiceConfig, FramingIsGatorOrPerf) {
    auto perf = parse("APCGATE_FRAMING=perf\n");
    ASSERT_TRUE(perf) << perf.error().to_string();
    EXPECT_EQ(perf->framing, std::optional<Framing>(Framing::Perf));
    auto gator = parse("APCGATE_FRAMING=gator\n");
    ASSERT_TRUE(gator) << gator.error().to_string();
    EXPECT_EQ(gator->framing, std::optional<Framing>(Framing::Gator));
    auto bad = parse("APCGATE_FRAMING=950\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().field, "APCGATE_FRAMING");
    EXPECT_NE(bad.error().message.find("gator or perf"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace apcgate::daemon
