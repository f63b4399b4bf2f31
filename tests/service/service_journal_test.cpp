// Logging under systemd: with stderr being the journal (JOURNAL_STREAM naming it), every line is
// "<priority>message", no timestamp; and the container health check script against the daemon.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "daemon_process.hpp"
#include "service_support.hpp"
#include "udp_probe.hpp"

namespace apcgate::service_test {
namespace {

using namespace std::chrono_literals;

std::string read_all(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Starts apcgate with stdout/stderr on `log` (created first so its inode is known) and
// JOURNAL_STREAM naming that inode, as systemd does for StandardError=journal.
pid_t spawn_under_journal(const std::vector<std::string>& args, const std::filesystem::path& log) {
    { std::ofstream create(log); }
    struct stat st {};
    if (::stat(log.c_str(), &st) != 0) return -1;
    const std::string journal = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        ::setenv("JOURNAL_STREAM", journal.c_str(), 1);
        std::vector<std::string> full{e2e::apcgate_binary()};
        full.insert(full.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : full) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

bool wait_for_text(const std::filesystem::path& log, const std::string& needle) {
    for (int i = 0; i < 500; ++i) {
        if (read_all(log).find(needle) != std::string::npos) return true;
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

TEST(ServiceJournal, LinesCarrySyslogPrioritiesAndNoTimestamps) {
    UdpProbe holder;  // a busy discovery port makes the daemon log a warning
    const auto busy = holder.bind_any();
    ASSERT_TRUE(busy);
    const auto dir = e2e::temp_dir("journal");
    const auto log = dir / "stderr";
    const pid_t pid =
        spawn_under_journal({"serve", "--listen", "127.0.0.1", "--port", "0", "--discovery-port",
                             std::to_string(*busy), "--state-dir", (dir / "state").string()},
                            log);
    ASSERT_GT(pid, 0);
    const bool up = wait_for_text(log, "listening on");
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(up) << read_all(log);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_all(log);
    const std::string text = read_all(log);
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
    const std::string script = std::string(APCGATE_SOURCE_DIR) + "/docker/healthcheck.sh";
    const std::string check = "APCGATE_PORT=" + std::to_string(*port) + " " + script;
    EXPECT_EQ(run_shell(check), 0) << d.log();
    // The check says goodbye with a Disconnect command, so the daemon logs no error for it.
    EXPECT_TRUE(wait_for_log(d, "Disconnect")) << d.log();
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(), std::optional<int>(0)) << d.log();
    EXPECT_NE(run_shell(check + " 2>/dev/null"), 0);  // nothing listens there any more
}

}  // namespace
}  // namespace apcgate::service_test
