// A fake systemd for tests: binds the unix datagram socket that NOTIFY_SOCKET names and
// collects what the daemon sends through sd_notify() (READY=1, STATUS=..., STOPPING=1).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::service_test {

class NotifyListener {
  public:
    NotifyListener();
    ~NotifyListener();
    NotifyListener(const NotifyListener&) = delete;
    NotifyListener& operator=(const NotifyListener&) = delete;

    [[nodiscard]] bool ok() const { return fd_ >= 0; }
    [[nodiscard]] const std::string& path() const { return path_; }

    // The next message, or nullopt after `timeout`.
    std::optional<std::string> next(std::chrono::milliseconds timeout);
    // Reads messages until one contains `needle`; returns it (nullopt on timeout). Every message
    // read is kept in seen().
    std::optional<std::string> wait_for(
        std::string_view needle, std::chrono::milliseconds timeout = std::chrono::seconds(10));
    [[nodiscard]] const std::vector<std::string>& seen() const { return seen_; }

  private:
    int fd_ = -1;
    std::string dir_;
    std::string path_;
    std::vector<std::string> seen_;
};

// Sets an environment variable for the lifetime of the guard (children inherit it).
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::string& value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace apcgate::service_test
