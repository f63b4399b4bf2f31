// One worker process and the read end of its output pipe. libbabeltrace2 hangs or crashes on
// some malformed traces (tests/ctf/libbabeltrace2_bugs/), so the CTF ingester runs it in a child
// process: a crash ends the child, never the daemon.
//
// The child is started with fork+exec of the apcgate executable itself: the daemon is
// multi-threaded, and between fork and exec only async-signal-safe calls are made (another
// thread may hold a glib, spdlog or malloc lock that a forked copy would wait on forever). The
// child's stdin is /dev/null, its stdout goes to stderr, its output pipe is fd 3 and every other
// descriptor is closed. The owner always reaps it: kill() and the destructor send SIGKILL and
// wait, so no zombie outlives the ChildProcess.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::ctf {

inline constexpr int kWorkerOutputFd = 3;

class ChildProcess {
  public:
    // Runs `exe` with `args` (argv[1..]) and `env` ("NAME=value") added to the environment; its
    // fd 3 is the write end of the returned pipe.
    static Result<std::unique_ptr<ChildProcess>> spawn(const std::filesystem::path& exe,
                                                       const std::vector<std::string>& args,
                                                       const std::vector<std::string>& env = {});
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    enum class ReadStatus { Ok, Eof, Timeout, Failed };
    // Reads exactly out.size() bytes, waiting at most `idle` between bytes (the no-progress
    // watchdog: the time counts only while this waits for the child).
    ReadStatus read_exact(std::span<std::uint8_t> out, std::chrono::milliseconds idle);

    // SIGKILL (when still running); safe from any thread.
    void kill();
    // Reaps the child (waits for it) and says how it ended, e.g. "exited with status 1",
    // "was killed by SIGSEGV"; `max_rss_bytes` is its peak resident memory.
    struct Ending {
        bool clean = false;  // exit status 0
        std::string how;
        int signal = 0;
        std::uint64_t max_rss_bytes = 0;
    };
    Ending wait();

    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    ChildProcess(pid_t pid, wire::UniqueFd out) : pid_(pid), out_(std::move(out)) {}

    pid_t pid_;
    wire::UniqueFd out_;
    std::mutex mutex_;  // kill() from another thread vs wait(): no signal to a reaped pid
    std::optional<Ending> ending_;
};

}  // namespace apcgate::collectors::ctf
