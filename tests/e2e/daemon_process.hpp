// Runs the real `apcgate` binary as a child process for end-to-end tests: start it, learn the
// port it listens on from its log, signal it, wait for it, and read its fd count and RSS.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apcgate::e2e {

// Variables added to the daemon's environment, made once its log file exists (so they can name
// it, e.g. JOURNAL_STREAM with the log's device and inode, as systemd sets for the journal).
using EnvironmentFor = std::function<std::vector<std::pair<std::string, std::string>>(
    const std::filesystem::path& log)>;

class DaemonProcess {
  public:
    // Starts `apcgate args...` with stdout/stderr sent to a log file in a temp dir.
    explicit DaemonProcess(const std::vector<std::string>& args, const EnvironmentFor& env = {});
    ~DaemonProcess();  // SIGKILL if still running
    DaemonProcess(const DaemonProcess&) = delete;
    DaemonProcess& operator=(const DaemonProcess&) = delete;

    // Waits for "listening on [...]:PORT" in the log and returns PORT.
    std::optional<int> wait_for_port(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Waits until `needle` is in the log; false if the daemon exits or the time runs out first.
    bool wait_for_log(const std::string& needle,
                      std::chrono::milliseconds timeout = std::chrono::seconds(20));
    void signal(int sig) const;
    // Waits for exit; returns the exit status (or 128+signal), nullopt on timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    [[nodiscard]] bool running();
    [[nodiscard]] pid_t pid() const { return pid_; }
    [[nodiscard]] std::string log() const;
    [[nodiscard]] int open_fds() const;  // entries in /proc/PID/fd
    [[nodiscard]] long rss_kib() const;  // VmRSS from /proc/PID/status
    // One "kB" field of /proc/PID/status (VmRSS, RssAnon, ...); -1 when absent.
    [[nodiscard]] long status_kib(const std::string& field) const;
    // /proc/PID/status and smaps_rollup, for a failure message about memory.
    [[nodiscard]] std::string memory_report() const;

  private:
    pid_t pid_ = -1;
    std::optional<int> status_;
    std::filesystem::path log_;
};

// Blocks a signal in the calling thread while it lives. A DaemonProcess started meanwhile
// inherits the mask, so a signal sent to it at once stays pending until the daemon unblocks it:
// the way to deliver a signal at a known point of its start (its first unblocking) without
// racing it.
class SignalBlocked {
  public:
    explicit SignalBlocked(int sig);
    ~SignalBlocked();
    SignalBlocked(const SignalBlocked&) = delete;
    SignalBlocked& operator=(const SignalBlocked&) = delete;

  private:
    sigset_t previous_{};
};

// Runs `apcgate args...` to completion, capturing stdout+stderr; returns (exit code, output).
std::pair<int, std::string> run_apcgate(const std::vector<std::string>& args,
                                        std::chrono::seconds timeout = std::chrono::seconds(60));
// A fresh empty directory under this test process's temp root (removed at exit).
std::filesystem::path temp_dir(const std::string& name);

}  // namespace apcgate::e2e
