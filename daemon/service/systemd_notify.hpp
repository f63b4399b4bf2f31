// Tells systemd how the service is doing, through libsystemd's sd_notify() (the unit is
// Type=notify): READY=1 once the TCP port is listening, STATUS= lines saying idle or capturing,
// RELOADING=1 around a SIGHUP re-read, STOPPING=1 when shutting down. Outside systemd
// (NOTIFY_SOCKET unset) every call does nothing.
#pragma once

#include <string>
#include <string_view>

namespace apcgate::daemon {

class SystemdNotifier {
  public:
    // True when started by a service manager that listens for notifications.
    [[nodiscard]] static bool enabled();

    void ready(std::string_view status);
    // Sends STATUS= only when it changed, so a poller may call it as often as it likes.
    void status(std::string_view status);
    void reloading(std::string_view status);
    void stopping(std::string_view status);

  private:
    void send(const std::string& message);
    std::string last_status_;
};

}  // namespace apcgate::daemon
