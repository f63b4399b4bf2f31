// Helpers of the service end-to-end tests: the real daemon's log, its sockets and files.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon_process.hpp"
#include "host_client.hpp"

namespace apcgate::service_test {

// The first number after `prefix` in the log, once it appears.
std::optional<int> number_after(e2e::DaemonProcess& d, const std::string& prefix);
// Inodes of the UDP sockets process `pid` holds (from /proc/PID/fd and /proc/net/udp{,6}).
std::vector<unsigned long> udp_socket_inodes(int pid);
void write_file(const std::filesystem::path& p, const std::string& text);
// Runs `command` with /bin/sh; returns its exit status.
int run_shell(const std::string& command);

// Reads the next response and checks it is a non-empty APC data frame: "the capture streams".
// Waits for it (up to 10 s) instead of assuming a frame within a fixed time.
bool next_frame(e2e::HostClient& c);

// The base `serve` arguments of a test daemon: loopback, free ports, its own state directory.
std::vector<std::string> serve_args(const std::filesystem::path& state,
                                    std::vector<std::string> extra = {});

}  // namespace apcgate::service_test
