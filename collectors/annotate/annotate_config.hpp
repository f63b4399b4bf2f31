// Where the annotation sources listen and the bounds they keep. Everything is injectable so
// tests (and a second daemon) can use their own socket names, ports and paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "collectors/annotate/annotate_protocol.hpp"
#include "collectors/annotate/text_lines.hpp"

namespace apcgate::collectors::annotate {

struct AnnotateConfig {
    // Abstract Unix socket of the data connections; the parent socket is this + "-parent".
    std::string socket_name = std::string(kDataSocketName);
    // TCP port of the parent connections (data: this + 1), on 127.0.0.1 and ::1; 0: no TCP.
    std::uint16_t tcp_port = kParentTcpPort;
    // The text form: a FIFO and a Unix stream socket (empty: none).
    std::filesystem::path text_fifo;
    std::filesystem::path text_socket;
    // Thread id given to lines from the FIFO, whose writer cannot be known (the daemon's pid).
    std::int32_t fifo_tid = 0;

    StreamLimits stream;
    // Bytes per second a data connection, and all of them together, may hand to the capture.
    // Beyond its rate a connection's reads pause (the I/O thread never blocks, memory stays
    // bounded and the capture stays within what a Streamline link carries); one kept over its
    // rate for longer than flood_ns (or than its largest visual needs) never stops: dropped.
    std::size_t connection_rate = std::size_t{4} * 1024 * 1024;
    std::size_t total_rate = std::size_t{8} * 1024 * 1024;
    std::int64_t flood_ns = 5'000'000'000;
    std::size_t max_data_connections = 256;
    std::size_t max_parent_clients = 1024;
    std::size_t max_text_clients = 64;
    std::size_t max_text_bytes = kDefaultMaxTextBytes;
    // A data connection must complete its handshake within this time.
    std::int64_t handshake_timeout_ns = 10'000'000'000;

    [[nodiscard]] std::string parent_socket_name() const { return socket_name + "-parent"; }
    [[nodiscard]] std::uint16_t data_tcp_port() const {
        return tcp_port == 0 ? 0 : static_cast<std::uint16_t>(tcp_port + 1);
    }
};

// A capture's budgets per engine poll, from the rates and the poll period (the live rate).
struct CaptureBudget {
    std::size_t share = 0;  // bytes a connection may hand over between two polls
    std::size_t total = 0;  // bytes all inputs together may have waiting
    int flood_takes = 0;    // polls in a row over its share that make a connection a flood
};
CaptureBudget budget_for(const AnnotateConfig& config, std::int64_t poll_period_ns);

// Where the text form's FIFO goes unless told: /run/apcgate/annotate as root, else
// $XDG_RUNTIME_DIR/apcgate/annotate; empty when neither applies.
std::filesystem::path default_text_fifo();

// The configuration for the command line's choices: `fifo` empty means the default path,
// "none" no text form; the text socket is the FIFO's path + ".sock"; FIFO lines carry the
// daemon's pid.
AnnotateConfig make_config(const std::string& socket_name, std::uint16_t tcp_port,
                           const std::string& fifo);

}  // namespace apcgate::collectors::annotate
