#include "daemon/service/systemd_notify.hpp"

#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <cstdlib>
#include <cstring>

namespace apcgate::daemon {

namespace {
// A status is one line of a newline-separated message: keep it one line.
std::string one_line(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c == '\n') c = ' ';
    return out;
}
}  // namespace

bool SystemdNotifier::enabled() {
    return std::getenv("NOTIFY_SOCKET") != nullptr;
}

void SystemdNotifier::send(const std::string& message) {
    // unset_environment = 0: we notify many times over the daemon's life.
    const int rc = sd_notify(0, message.c_str());
    if (rc < 0) spdlog::debug("sd_notify failed: {}", std::strerror(-rc));
}

void SystemdNotifier::ready(std::string_view status) {
    last_status_ = one_line(status);
    send("READY=1\nSTATUS=" + last_status_);
}

void SystemdNotifier::status(std::string_view status) {
    if (one_line(status) == last_status_) return;
    last_status_ = one_line(status);
    send("STATUS=" + last_status_);
}

void SystemdNotifier::reloading(std::string_view status) {
    last_status_ = one_line(status);
    send("RELOADING=1\nSTATUS=" + last_status_);
}

void SystemdNotifier::stopping(std::string_view status) {
    last_status_ = one_line(status);
    send("STOPPING=1\nSTATUS=" + last_status_);
}

}  // namespace apcgate::daemon
