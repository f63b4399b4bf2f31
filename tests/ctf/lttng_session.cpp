#include "lttng_session.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace apcgate::ctf_test {

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

int sh(const std::string& cmd, const fs::path& log) {
    const int rc = std::system((cmd + " >>" + quote(log.string()) + " 2>&1").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool sessiond_answers() {
    return std::system("lttng list > /dev/null 2>&1") == 0;
}

// One LTTng session at a time across test processes.
class LttngLock {
  public:
    LttngLock() : fd_(::open("/tmp/apcgate-ctf-lttng.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0666)) {
        if (fd_ >= 0) ::flock(fd_, LOCK_EX);
    }
    ~LttngLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    LttngLock(const LttngLock&) = delete;
    LttngLock& operator=(const LttngLock&) = delete;

  private:
    int fd_;
};

}  // namespace

std::string lttng_unavailable() {
    if (std::system(
            "command -v lttng > /dev/null 2>&1 && command -v lttng-sessiond > /dev/null 2>&1") != 0)
        return "lttng-tools is not installed (Debian packages lttng-tools, liblttng-ust-dev)";
    LttngLock lock;
    if (sessiond_answers()) return {};
    if (::geteuid() != 0)
        return "no LTTng session daemon runs and this test is not root to start one";
    (void)std::system("lttng-sessiond --daemonize > /dev/null 2>&1");
    for (int i = 0; i < 50; ++i) {
        if (sessiond_answers()) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "lttng-sessiond did not start";
}

namespace {

// Runs `steps` in order, logging to `log`; the session is destroyed whatever happens.
Status run_session(const std::string& session, const std::vector<std::string>& steps,
                   const fs::path& log) {
    for (const auto& step : steps) {
        if (sh(step, log) != 0) {
            sh("lttng destroy " + session, log);
            return Error::at(ErrorKind::Io, "`" + step + "` failed: " + read_all(log));
        }
    }
    sh("lttng destroy " + session, log);
    return {};
}

std::string program(const std::vector<std::string>& command) {
    std::string line = "LTTNG_UST_ALLOW_BLOCKING=1";
    for (const auto& a : command) line += " " + quote(a);
    return line;
}

}  // namespace

Result<fs::path> make_ust_snapshots(const fs::path& out,
                                    const std::vector<std::vector<std::string>>& commands) {
    LttngLock lock;
    const std::string session = "apcgate-ctf-snap-" + std::to_string(::getpid());
    const fs::path log = out.string() + ".log";
    fs::remove(log);
    const std::string s = " -s " + session;
    std::vector<std::string> steps = {
        "lttng create " + session + " --snapshot --output=" + quote(out.string()),
        "lttng enable-channel -u" + s + " --subbuf-size=1M --num-subbuf=4 ch",
        "lttng enable-event -u" + s + " -c ch 'apcgate_ctf_test:*'",
        "lttng enable-event -u" + s + " -c ch 'lttng_ust_tracef:*'",
        "lttng start " + session,
    };
    for (const auto& command : commands) {
        steps.push_back(program(command));
        steps.push_back("lttng snapshot record" + s);
    }
    steps.push_back("lttng stop " + session);
    if (Status st = run_session(session, steps, log); !st) return std::move(st).take_error();
    return out;
}

Result<UstTrace> make_ust_trace(const fs::path& out, const std::vector<std::string>& command,
                                const std::vector<std::string>& contexts) {
    LttngLock lock;
    const std::string session = "apcgate-ctf-" + std::to_string(::getpid());
    const fs::path log = out.string() + ".log";
    fs::remove(log);
    const std::string s = " -s " + session;
    std::vector<std::string> steps = {
        "lttng create " + session + " --output=" + quote(out.string()),
        "lttng enable-channel -u" + s +
            " --subbuf-size=1M --num-subbuf=4 --blocking-timeout=inf ch",
        "lttng enable-event -u" + s + " -c ch 'apcgate_ctf_test:*'",
        "lttng enable-event -u" + s + " -c ch 'lttng_ust_tracef:*'",
        "lttng enable-event -u" + s + " -c ch 'lttng_ust_tracelog:*'",
    };
    for (const auto& c : contexts)
        steps.emplace_back("lttng add-context -u").append(s).append(" -c ch -t ").append(c);
    steps.push_back("lttng start " + session);
    steps.push_back(program(command));
    steps.push_back("lttng stop " + session);
    if (Status st = run_session(session, steps, log); !st) return std::move(st).take_error();
    return UstTrace{out, contexts};
}

}  // namespace apcgate::ctf_test
