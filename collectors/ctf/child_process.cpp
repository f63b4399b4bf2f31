#include "collectors/ctf/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace apcgate::collectors::ctf {

namespace {

constexpr int kPipeBytes = 1 << 20;

// The worker's environment: the daemon's, except that in a sanitizer build the sanitizer leaves
// SIGSEGV, SIGBUS and SIGFPE alone, so libbabeltrace2's crashes end the worker by the signal
// and are reported as in a release build (not as the sanitizer's exit status 1).
std::vector<std::string> worker_environment() {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
#if defined(__SANITIZE_ADDRESS__)
    const std::string key = "ASAN_OPTIONS=";
    const std::string mine = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0";
    auto it = std::find_if(env.begin(), env.end(), [&](const std::string& v) {
        return v.compare(0, key.size(), key) == 0;
    });
    if (it == env.end()) {
        env.push_back(key + mine);
    } else {
        *it += (it->size() > key.size() ? ":" : "") + mine;
    }
#endif
    return env;
}

// In the forked child, before exec: async-signal-safe calls only.
[[noreturn]] void exec_child(int pipe_write, const char* exe, char* const* argv,
                             char* const* envp) {
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);  // the parent's stdout may be a capture or a report
    if (pipe_write != kWorkerOutputFd) {
        ::dup2(pipe_write, kWorkerOutputFd);
    } else {
        ::fcntl(kWorkerOutputFd, F_SETFD, 0);  // the same number: only drop O_CLOEXEC
    }
    ::close_range(kWorkerOutputFd + 1, ~0U, 0);
    // The daemon's signal mask and dispositions (blocked SIGTERM, ignored SIGPIPE) are not the
    // worker's business: it starts from the defaults.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(exe, argv, envp);
    ::_exit(127);
}

const char* signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev != nullptr ? abbrev : "?";
}

}  // namespace

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const std::filesystem::path& exe,
                                                          const std::vector<std::string>& args,
                                                          const std::vector<std::string>& added) {
    // Everything the child needs is made before fork: no allocation after it.
    std::string exe_path = exe.string();
    std::vector<std::string> owned;
    owned.reserve(args.size() + 1);
    owned.push_back(exe_path);
    owned.insert(owned.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(owned.size() + 1);
    for (auto& a : owned) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env = worker_environment();
    for (const auto& v : added) {
        const std::string key = v.substr(0, v.find('=') + 1);
        std::erase_if(env,
                      [&](const std::string& e) { return e.compare(0, key.size(), key) == 0; });
        env.push_back(v);
    }
    std::vector<char*> envp;
    envp.reserve(env.size() + 1);
    for (auto& v : env) envp.push_back(v.data());
    envp.push_back(nullptr);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return Error::at(ErrorKind::Io, std::string("cannot make a pipe: ") + std::strerror(errno));
    wire::UniqueFd read_end(fds[0]), write_end(fds[1]);
    // A chunk frame is a few MiB: a larger pipe (1 MiB, the default pipe-max-size) means fewer
    // switches between a writer waiting for room and a reader waiting for bytes. Best effort.
    ::fcntl(write_end.get(), F_SETPIPE_SZ, kPipeBytes);
    const pid_t pid = ::fork();
    if (pid < 0)
        return Error::at(ErrorKind::Io, std::string("cannot fork: ") + std::strerror(errno));
    if (pid == 0) exec_child(write_end.get(), exe_path.c_str(), argv.data(), envp.data());
    write_end.reset();  // the parent sees EOF once the child (its only writer) is gone
    return std::unique_ptr<ChildProcess>(new ChildProcess(pid, std::move(read_end)));
}

ChildProcess::~ChildProcess() {
    kill();
    wait();
}

ChildProcess::ReadStatus ChildProcess::read_exact(std::span<std::uint8_t> out,
                                                  std::chrono::milliseconds idle) {
    std::size_t done = 0;
    while (done < out.size()) {
        pollfd p{out_.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(idle.count()));
        if (ready < 0) {
            if (errno == EINTR) continue;
            return ReadStatus::Failed;
        }
        if (ready == 0) return ReadStatus::Timeout;
        const ssize_t n = ::read(out_.get(), out.data() + done, out.size() - done);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return ReadStatus::Failed;
        }
        if (n == 0) return ReadStatus::Eof;
        done += static_cast<std::size_t>(n);
    }
    return ReadStatus::Ok;
}

void ChildProcess::kill() {
    std::lock_guard lock(mutex_);
    if (!ending_) ::kill(pid_, SIGKILL);
}

ChildProcess::Ending ChildProcess::wait() {
    std::lock_guard lock(mutex_);
    if (ending_) return *ending_;
    int status = 0;
    rusage usage{};
    pid_t r = -1;
    do {
        r = ::wait4(pid_, &status, 0, &usage);
    } while (r < 0 && errno == EINTR);
    Ending e;
    if (r < 0) {
        e.how = std::string("could not be waited for: ") + std::strerror(errno);
    } else if (WIFEXITED(status)) {
        e.clean = WEXITSTATUS(status) == 0;
        e.how = "exited with status " + std::to_string(WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        e.signal = WTERMSIG(status);
        e.how = std::string("crashed (SIG") + signal_name(e.signal) + ")";
    }
    e.max_rss_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // ru_maxrss is KiB
    ending_ = e;
    return e;
}

}  // namespace apcgate::collectors::ctf
