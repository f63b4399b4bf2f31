// Logging under systemd: with stderr being the journal (JOURNAL_STREAM naming it), every line is
// "<priority>message", no timestamp; and the container health check script against the daemon.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <regex>
#include <sstream>

#include "daemon_process.hpp"
#include "service_support.hpp"
#include "tests/support/test_paths.hpp"
#include "udp_probe.hpp"

namespace apcgate::service_test {
namespace {

using namespace std::chrono_literals;

// JOURNAL_STREAM naming the daemon's log file by device and inode, as systemd sets it for
// StandardError=journal.
std::vector<std::pair<std::string, std::string>> journal_stream(const std::filesystem::path& log) {
    struct stat st {};
    if (::stat(log.c_str(), &st) != 0) return {};
    return {{"JOURNAL_STREAM", std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino)}};
}

TEST(ServiceJournal, LinesCarrySyslogPrioritiesAndNoTimestamps) {
    UdpProbe holder;  // a busy discovery port makes the daemon log a warning
    const auto busy = holder.bind_any();
    ASSERT_TRUE(busy);
    e2e::DaemonProcess d(
        {"serve", "--listen", "127.0.0.1", "--port", "0", "--discovery-port", std::to_string(*busy),
         "--state-dir", (e2e::temp_dir("journal") / "state").string()},
        journal_stream);
    ASSERT_TRUE(d.wait_for_port()) << d.log();
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
    const std::string text = d.log();
    EXPECT_TRUE(std::regex_search(text, std::regex(R"((^|\n)<6>apcgate \S+ listening on)")))
        << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"((^|\n)<4>discovery: off: )"))) << text;
    std::istringstream lines(text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        ++n;
        EXPECT_TRUE(std::regex_match(line, std::regex(R"(<[0-7]>.*)"))) << line;
        EXPECT_FALSE(std::regex_search(line, std::regex(R"(\d{4}-\d\d-\d\d \d\d:)"))) << line;
    }
    EXPECT_GE(n, 3);
}

TEST(ContainerHealthCheck, PassesAgainstTheDaemonAndFailsWithoutIt) {
    e2e::DaemonProcess d(
        serve_args(e2e::temp_dir("state"), {"--no-discovery", "--log-level", "debug"}));
    const auto port = d.wait_for_port();
    ASSERT_TRUE(port) << d.log();
    const std::string script =
        std::string(apcgate::test_paths::source_dir()) + "/docker/healthcheck.sh";
    const std::string check = "APCGATE_PORT=" + std::to_string(*port) + " " + script;
    EXPECT_EQ(run_shell(check), 0) << d.log();
    // The check says goodbye with a Disconnect command, so the daemon logs no error for it.
    EXPECT_TRUE(d.wait_for_log("Disconnect")) << d.log();
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
    EXPECT_NE(run_shell(check + " 2>/dev/null"), 0);  // nothing listens there any more
}

}  // namespace
}  // namespace apcgate::service_test
