// An annotation client written for these tests from docs/protocol/annotation-protocol.md (not
// from Arm's library): it builds every message kind byte for byte as the library sends it and
// connects the way the library does (abstract Unix sockets or loopback TCP; parent first, data
// per thread), with control over how the bytes are cut into writes.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::annotate_test {

using Bytes = std::vector<std::uint8_t>;

// Signed LEB128 as the library packs int32/int64 (uint32 arguments >= 2^31 go negative).
void put_packed(Bytes& out, std::int64_t v);
// The library's colour bytes: bits 8-15, 16-23, 24-31, then 0-7.
void put_colour(Bytes& out, std::uint32_t colour);

Bytes handshake(std::uint32_t tid, std::uint32_t pid, std::uint8_t dont_mangle_keys = 0,
                std::string_view version = "5");

struct CounterDef {
    std::int32_t id = 1, per_cpu = 0, counter_class = 1, display = 1, modifier = 1, series = 1,
                 rendering = 1, average_selection = 0, average_cores = 0, percentage = 0, cores = 0;
    std::uint32_t colour = 0x00ff001b;
    std::vector<std::pair<std::string, std::uint32_t>> activities;
    std::string title, name, units, description;
};

// One whole message (code, u32 length, payload).
Bytes message(std::uint8_t code, const Bytes& payload);
Bytes string_msg(std::int64_t time, std::uint32_t channel, std::string_view text);
Bytes string_colour_msg(std::int64_t time, std::uint32_t channel, std::uint32_t colour,
                        std::string_view text);
Bytes channel_name_msg(std::int64_t time, std::uint32_t channel, std::uint32_t group,
                       std::string_view name);
Bytes group_name_msg(std::int64_t time, std::uint32_t group, std::string_view name);
Bytes visual_msg(std::int64_t time, std::string_view text, const Bytes& image);
Bytes marker_msg(std::int64_t time, std::string_view text);
Bytes marker_colour_msg(std::int64_t time, std::uint32_t colour, std::string_view text);
Bytes counter_msg(const CounterDef& c);
Bytes counter_value_msg(std::int64_t time, std::uint32_t core, std::uint32_t id,
                        std::int64_t value);
Bytes activity_switch_msg(std::int64_t time, std::uint32_t core, std::uint32_t id,
                          std::uint32_t activity, std::uint32_t tid);
Bytes cam_track_msg(std::uint32_t view, std::uint32_t track, std::uint32_t parent,
                    std::string_view name);
Bytes cam_job_msg(std::uint32_t view, std::uint32_t job, std::uint32_t track, std::int64_t start,
                  std::int64_t duration, std::uint32_t colour, std::uint32_t primary_dep,
                  const std::vector<std::uint32_t>& deps, std::string_view name);
Bytes cam_view_name_msg(std::uint32_t view, std::string_view name);
Bytes cam_job_start_msg(std::uint32_t view, std::uint32_t job, std::uint32_t track,
                        std::int64_t time, std::uint32_t colour, std::string_view name);
Bytes cam_job_set_deps_msg(std::uint32_t view, std::uint32_t job, std::int64_t time,
                           std::uint32_t primary_dep, const std::vector<std::uint32_t>& deps);
Bytes cam_job_stop_msg(std::uint32_t view, std::uint32_t job, std::int64_t time);

// Every message kind once (codes 0x01..0x10), texts tagged with `tag`; `time` advances.
Bytes every_kind(std::int64_t time, const std::string& tag, std::size_t image_bytes = 300);
std::int64_t monotonic_raw_ns();

// Connections. Each returns -1 when the connect fails (refused: no capture).
int connect_abstract(std::string_view name);
int connect_tcp(std::uint16_t port, bool ipv6 = false);
int connect_path(const std::string& path);  // a Unix stream socket file (the text form)

// A blocking connected socket; closes on destruction.
class Conn {
  public:
    explicit Conn(int fd = -1) : fd_(fd) {}
    ~Conn();
    Conn(Conn&& o) noexcept;
    Conn& operator=(Conn&& o) noexcept;
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    [[nodiscard]] bool ok() const { return fd_ >= 0; }
    [[nodiscard]] int fd() const { return fd_; }
    // Sends `bytes` cut into writes of the given sizes (cycled); false if a send failed.
    bool send_in_pieces(const Bytes& bytes, const std::vector<std::size_t>& sizes = {});
    // Waits for one byte from the daemon (the parent's capture-start notification).
    std::optional<std::uint8_t> read_byte(std::chrono::milliseconds timeout);
    // True when the daemon closed the connection (EOF or reset) within the timeout.
    bool wait_closed(std::chrono::milliseconds timeout);
    void close();

  private:
    int fd_ = -1;
};

// A free TCP port P on 127.0.0.1 such that P+1 was free too (for the parent/data pair).
std::uint16_t free_port_pair();
// A name unique to this process and call, for abstract sockets.
std::string unique_socket_name(const std::string& what);

}  // namespace apcgate::annotate_test
