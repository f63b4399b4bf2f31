#include "daemon_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/support/test_paths.hpp"
#include "whole_file.hpp"

extern char** environ;

namespace apcgate::e2e {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
    // Every directory of this test process lives under one root that is removed when the process
    // exits (APCGATE_KEEP_TEMP=1 keeps it, to look at a failure's files).
    struct Root {
        fs::path path = fs::temp_directory_path() / ("apcgate-e2e-" + std::to_string(::getpid()));
        ~Root() {
            if (std::getenv("APCGATE_KEEP_TEMP") != nullptr) return;
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    };
    static const Root kRoot;
    static int counter = 0;
    fs::path dir = kRoot.path / (name + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

namespace {

// Everything the child needs is made before fork(): after it, only async-signal-safe calls.
pid_t spawn(const std::vector<std::string>& args, const fs::path& log,
            const std::vector<std::pair<std::string, std::string>>& extra_env) {
    std::vector<std::string> full{test_paths::apcgate_binary()};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(full.size() + 1);
    for (auto& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_text;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string_view entry(*e);
        const auto overridden = [&](const auto& kv) { return entry.starts_with(kv.first + "="); };
        if (std::none_of(extra_env.begin(), extra_env.end(), overridden))
            env_text.emplace_back(entry);
    }
    for (const auto& [name, value] : extra_env)
        env_text.emplace_back(name).append("=").append(value);
    std::vector<char*> envp;
    envp.reserve(env_text.size() + 1);
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(log_fd, 1);
        ::dup2(log_fd, 2);
        ::dup2(devnull, 0);
        // Only stdio is inherited: fd counts in the child are its own.
        for (int i = 3; i < 1024; ++i) ::close(i);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    if (log_fd >= 0) ::close(log_fd);
    if (devnull >= 0) ::close(devnull);
    return pid;
}

int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

}  // namespace

DaemonProcess::DaemonProcess(const std::vector<std::string>& args, const EnvironmentFor& env) {
    log_ = temp_dir("log") / "daemon.log";
    { std::ofstream create(log_); }
    pid_ = spawn(args, log_, env ? env(log_) : std::vector<std::pair<std::string, std::string>>{});
}

DaemonProcess::~DaemonProcess() {
    if (pid_ > 0 && !status_) {
        ::kill(pid_, SIGKILL);
        int st = 0;
        ::waitpid(pid_, &st, 0);
    }
    std::error_code ec;
    fs::remove_all(log_.parent_path(), ec);
}

std::string DaemonProcess::log() const {
    return read_whole_file(log_);
}

std::optional<int> DaemonProcess::wait_for_port(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const std::regex re(R"(listening on \[[^\]]*\]:(\d+))");
    while (std::chrono::steady_clock::now() < deadline) {
        std::smatch m;
        const std::string text = log();
        if (std::regex_search(text, m, re)) return std::stoi(m[1]);
        if (!running()) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

bool DaemonProcess::wait_for_log(const std::string& needle, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (log().find(needle) != std::string::npos) return true;
        if (!running()) return log().find(needle) != std::string::npos;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

SignalBlocked::SignalBlocked(int sig) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

SignalBlocked::~SignalBlocked() {
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void DaemonProcess::signal(int sig) const {
    if (pid_ > 0) ::kill(pid_, sig);
}

bool DaemonProcess::running() {
    if (status_) return false;
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        status_ = decode_status(st);
        return false;
    }
    return true;
}

std::optional<int> DaemonProcess::wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (running()) {
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return status_;
}

int DaemonProcess::open_fds() const {
    int n = 0;
    std::error_code ec;
    for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid_) + "/fd", ec);
         !ec && it != fs::directory_iterator(); it.increment(ec))
        ++n;
    return n;
}

long DaemonProcess::rss_kib() const {
    return status_kib("VmRSS");
}

long DaemonProcess::status_kib(const std::string& field) const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    const std::string key = field + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
    return -1;
}

std::string DaemonProcess::memory_report() const {
    const std::string dir = "/proc/" + std::to_string(pid_) + "/";
    return "status:\n" + read_whole_file(dir + "status") + "smaps_rollup:\n" +
           read_whole_file(dir + "smaps_rollup");
}

std::pair<int, std::string> run_apcgate(const std::vector<std::string>& args,
                                        std::chrono::seconds timeout) {
    DaemonProcess p(args);
    const auto rc = p.wait(timeout);
    if (!rc) {
        p.signal(SIGKILL);
        return {-1, p.log()};
    }
    return {*rc, p.log()};
}

}  // namespace apcgate::e2e
