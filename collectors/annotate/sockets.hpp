// The listening endpoints of the annotation sources and the fd that owns each: abstract Unix
// sockets (the library's), TCP on loopback, and the text form's FIFO and Unix socket. Every fd
// is non-blocking and close-on-exec, so an I/O thread can serve them without ever blocking and a
// `record -- CMD` child does not inherit them.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::annotate {

// Owns one file descriptor (the project's one RAII fd type).
using Fd = wire::UniqueFd;

// Listens on the abstract Unix stream socket `name` (no leading NUL; the address length excludes
// any trailing NUL, as the library's connect does).
Result<Fd> listen_abstract(std::string_view name, int backlog);
// Listens on TCP `address` ("127.0.0.1" or "::1") and `port`.
Result<Fd> listen_tcp(const std::string& address, std::uint16_t port, int backlog);
// Creates a Unix stream socket at `path` (replacing a stale socket nobody listens on; refusing
// anything else already there) with `mode`, and listens.
Result<Fd> listen_unix_path(const std::filesystem::path& path, mode_t mode, int backlog);
// Creates the FIFO `path` (replacing a stale FIFO nobody reads; refusing a live one or any other
// file) with `mode`.
Status make_fifo(const std::filesystem::path& path, mode_t mode);
// Opens a FIFO for reading without blocking (reopened after each end of file).
Result<Fd> open_fifo_reader(const std::filesystem::path& path);

// Accepts one connection, non-blocking and close-on-exec; nullopt with `err` set otherwise
// (EAGAIN: nothing pending).
std::optional<Fd> accept_connection(int listen_fd, int& err);
// The pid of the process at the other end of a Unix stream socket (SO_PEERCRED).
std::optional<pid_t> peer_pid(int fd);
// The local endpoint a connection came in on: "@name" (abstract), "[addr]:port" (TCP) or a path.
std::string endpoint_label(int fd);

std::int64_t monotonic_now_ns();

}  // namespace apcgate::collectors::annotate
