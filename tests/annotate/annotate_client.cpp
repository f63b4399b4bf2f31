#include "annotate_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include "protocol/wire/socket_address.hpp"

namespace apcgate::annotate_test {

void put_packed(Bytes& out, std::int64_t v) {
    // Seven bits at a time, low first; stop once the rest is only sign bits and bit 6 of the
    // last byte agrees with the sign.
    for (;;) {
        const auto low = static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) & 0x7f);
        v >>= 7;
        const bool last = (v == 0 && !(low & 0x40)) || (v == -1 && (low & 0x40));
        out.push_back(last ? low : static_cast<std::uint8_t>(low | 0x80));
        if (last) return;
    }
}

namespace {
void put_u32(Bytes& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_text(Bytes& out, std::string_view s) {
    out.insert(out.end(), s.begin(), s.end());
}
void put_cstr(Bytes& out, std::string_view s) {
    put_text(out, s);
    out.push_back(0);
}
// The library packs uint32 arguments as int32.
void put_p32(Bytes& out, std::uint32_t v) {
    put_packed(out, static_cast<std::int32_t>(v));
}
}  // namespace

void put_colour(Bytes& out, std::uint32_t c) {
    out.push_back(static_cast<std::uint8_t>(c >> 8));
    out.push_back(static_cast<std::uint8_t>(c >> 16));
    out.push_back(static_cast<std::uint8_t>(c >> 24));
    out.push_back(static_cast<std::uint8_t>(c));
}

Bytes handshake(std::uint32_t tid, std::uint32_t pid, std::uint8_t dont_mangle_keys,
                std::string_view version) {
    Bytes out;
    put_text(out, "ANNOTATE ");
    put_text(out, version);
    out.push_back('\n');
    put_u32(out, tid);
    put_u32(out, pid);
    out.push_back(dont_mangle_keys);
    return out;
}

Bytes message(std::uint8_t code, const Bytes& payload) {
    Bytes out{code};
    put_u32(out, static_cast<std::uint32_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

Bytes string_msg(std::int64_t time, std::uint32_t channel, std::string_view text) {
    Bytes p;
    put_packed(p, time);
    put_p32(p, channel);
    put_text(p, text);
    return message(0x01, p);
}

Bytes string_colour_msg(std::int64_t time, std::uint32_t channel, std::uint32_t colour,
                        std::string_view text) {
    Bytes p;
    put_packed(p, time);
    put_p32(p, channel);
    put_colour(p, colour);
    put_text(p, text);
    return message(0x02, p);
}

Bytes channel_name_msg(std::int64_t time, std::uint32_t channel, std::uint32_t group,
                       std::string_view name) {
    Bytes p;
    put_packed(p, time);
    put_p32(p, channel);
    put_p32(p, group);
    put_text(p, name);
    return message(0x03, p);
}

Bytes group_name_msg(std::int64_t time, std::uint32_t group, std::string_view name) {
    Bytes p;
    put_packed(p, time);
    put_p32(p, group);
    put_text(p, name);
    return message(0x04, p);
}

Bytes visual_msg(std::int64_t time, std::string_view text, const Bytes& image) {
    Bytes p;
    put_packed(p, time);
    put_cstr(p, text);
    p.insert(p.end(), image.begin(), image.end());
    return message(0x05, p);
}

Bytes marker_msg(std::int64_t time, std::string_view text) {
    Bytes p;
    put_packed(p, time);
    put_text(p, text);
    return message(0x06, p);
}

Bytes marker_colour_msg(std::int64_t time, std::uint32_t colour, std::string_view text) {
    Bytes p;
    put_packed(p, time);
    put_colour(p, colour);
    put_text(p, text);
    return message(0x07, p);
}

Bytes counter_msg(const CounterDef& c) {
    Bytes p;
    for (std::int32_t v : {c.id, c.per_cpu, c.counter_class, c.display, c.modifier, c.series,
                           c.rendering, c.average_selection, c.average_cores, c.percentage,
                           static_cast<std::int32_t>(c.activities.size()), c.cores})
        put_packed(p, v);
    put_colour(p, c.colour);
    for (const auto& [name, colour] : c.activities) {
        put_cstr(p, name);
        put_colour(p, colour);
    }
    put_cstr(p, c.title);
    put_cstr(p, c.name);
    put_cstr(p, c.units);
    put_text(p, c.description);
    return message(0x08, p);
}

Bytes counter_value_msg(std::int64_t time, std::uint32_t core, std::uint32_t id,
                        std::int64_t value) {
    Bytes p;
    put_packed(p, time);
    put_p32(p, core);
    put_p32(p, id);
    put_packed(p, value);
    return message(0x09, p);
}

Bytes activity_switch_msg(std::int64_t time, std::uint32_t core, std::uint32_t id,
                          std::uint32_t activity, std::uint32_t tid) {
    Bytes p;
    put_packed(p, time);
    for (std::uint32_t v : {core, id, activity, tid}) put_p32(p, v);
    return message(0x0a, p);
}

Bytes cam_track_msg(std::uint32_t view, std::uint32_t track, std::uint32_t parent,
                    std::string_view name) {
    Bytes p;
    for (std::uint32_t v : {view, track, parent}) put_p32(p, v);
    put_text(p, name);
    return message(0x0b, p);
}

Bytes cam_job_msg(std::uint32_t view, std::uint32_t job, std::uint32_t track, std::int64_t start,
                  std::int64_t duration, std::uint32_t colour, std::uint32_t primary_dep,
                  const std::vector<std::uint32_t>& deps, std::string_view name) {
    Bytes p;
    for (std::uint32_t v : {view, job, track}) put_p32(p, v);
    put_packed(p, start);
    put_packed(p, duration);
    put_colour(p, colour);
    put_p32(p, primary_dep);
    put_p32(p, static_cast<std::uint32_t>(deps.size()));
    for (std::uint32_t d : deps) put_p32(p, d);
    put_text(p, name);
    return message(0x0c, p);
}

Bytes cam_view_name_msg(std::uint32_t view, std::string_view name) {
    Bytes p;
    put_p32(p, view);
    put_text(p, name);
    return message(0x0d, p);
}

Bytes cam_job_start_msg(std::uint32_t view, std::uint32_t job, std::uint32_t track,
                        std::int64_t time, std::uint32_t colour, std::string_view name) {
    Bytes p;
    for (std::uint32_t v : {view, job, track}) put_p32(p, v);
    put_packed(p, time);
    put_colour(p, colour);
    put_text(p, name);
    return message(0x0e, p);
}

Bytes cam_job_set_deps_msg(std::uint32_t view, std::uint32_t job, std::int64_t time,
                           std::uint32_t primary_dep, const std::vector<std::uint32_t>& deps) {
    Bytes p;
    put_p32(p, view);
    put_p32(p, job);
    put_packed(p, time);
    put_p32(p, primary_dep);
    put_p32(p, static_cast<std::uint32_t>(deps.size()));
    for (std::uint32_t d : deps) put_p32(p, d);
    return message(0x0f, p);
}

Bytes cam_job_stop_msg(std::uint32_t view, std::uint32_t job, std::int64_t time) {
    Bytes p;
    put_p32(p, view);
    put_p32(p, job);
    put_packed(p, time);
    return message(0x10, p);
}

Bytes every_kind(std::int64_t time, const std::string& tag, std::size_t image_bytes) {
    Bytes out;
    const auto add = [&out](const Bytes& m) { out.insert(out.end(), m.begin(), m.end()); };
    CounterDef c;
    c.id = 7;
    c.counter_class = 3;  // activity
    c.activities = {{"idle", 0x0000001b}, {"busy " + tag, 0xff00001b}};
    c.title = "Title " + tag;
    c.name = "Counter " + tag;
    c.units = "ops";
    c.description = "what " + tag + " counts";
    add(counter_msg(c));
    add(cam_track_msg(1, 2, 0xffffffffu, "track " + tag));
    add(cam_view_name_msg(1, "view " + tag));
    add(string_msg(time++, 0, "hello " + tag));
    add(string_colour_msg(time++, 3, 0x00ff001bu, "green " + tag));
    add(channel_name_msg(time++, 3, 1, "channel " + tag));
    add(group_name_msg(time++, 1, "group " + tag));
    Bytes image(image_bytes);
    for (std::size_t i = 0; i < image.size(); ++i) image[i] = static_cast<std::uint8_t>(i * 7 + 1);
    add(visual_msg(time++, "visual " + tag, image));
    add(marker_msg(time++, "marker " + tag));
    add(marker_colour_msg(time++, 0x0000ff1bu, "blue marker " + tag));
    add(counter_value_msg(time++, 1, 7, -123456789012LL));
    add(activity_switch_msg(time++, 0, 7, 2, 4242));
    add(cam_job_msg(1, 10, 2, time, 5000, 0x1, 0xffffffffu, {3, 4, 0x80000000u}, "job " + tag));
    add(cam_job_start_msg(1, 11, 2, time++, 0x2, "started " + tag));
    add(cam_job_set_deps_msg(1, 11, time++, 10, {10}));
    add(cam_job_stop_msg(1, 11, time++));
    add(string_msg(time++, 3, ""));  // END: an empty text ends the channel's span
    return out;
}

std::int64_t monotonic_raw_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int connect_abstract(std::string_view name) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path + 1, name.data(), name.size());
    const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (::connect(fd, wire::sockaddr_of(addr), len) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int connect_tcp(std::uint16_t port, bool ipv6) {
    const int fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int rc = -1;
    if (ipv6) {
        sockaddr_in6 a{};
        a.sin6_family = AF_INET6;
        a.sin6_port = htons(port);
        a.sin6_addr = in6addr_loopback;
        rc = ::connect(fd, wire::sockaddr_of(a), sizeof a);
    } else {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        rc = ::connect(fd, wire::sockaddr_of(a), sizeof a);
    }
    if (rc != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int connect_path(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
        ::close(fd);
        return -1;
    }
    std::memcpy(addr.sun_path, path.data(), path.size());
    if (::connect(fd, wire::sockaddr_of(addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

Conn::~Conn() {
    close();
}
Conn::Conn(Conn&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
Conn& Conn::operator=(Conn&& o) noexcept {
    if (this != &o) {
        close();
        fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
}

void Conn::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

bool Conn::send_in_pieces(const Bytes& bytes, const std::vector<std::size_t>& sizes) {
    std::size_t pos = 0, turn = 0;
    while (pos < bytes.size()) {
        std::size_t n = sizes.empty() ? bytes.size() - pos : sizes[turn++ % sizes.size()];
        n = std::min(std::max<std::size_t>(n, 1), bytes.size() - pos);
        const ssize_t sent = ::send(fd_, bytes.data() + pos, n, MSG_NOSIGNAL);
        if (sent <= 0) {
            if (sent < 0 && errno == EINTR) continue;
            return false;
        }
        pos += static_cast<std::size_t>(sent);
    }
    return true;
}

std::optional<std::uint8_t> Conn::read_byte(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) != 1) return std::nullopt;
    std::uint8_t b = 0;
    if (::recv(fd_, &b, 1, 0) != 1) return std::nullopt;
    return b;
}

bool Conn::wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) != 1) return false;
        std::uint8_t buf[256];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n <= 0) return true;
    }
}

namespace {

// Whether a TCP listener could bind `port` on loopback now (IPv4, or ::1 where IPv6 exists).
bool loopback_port_free(std::uint16_t port, bool v6) {
    const int s = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return v6;  // no IPv6 here: nothing to collide with
    int rc = -1;
    if (v6) {
        sockaddr_in6 b{};
        b.sin6_family = AF_INET6;
        b.sin6_port = htons(port);
        b.sin6_addr = in6addr_loopback;
        rc = ::bind(s, wire::sockaddr_of(b), sizeof b);
    } else {
        sockaddr_in b{};
        b.sin_family = AF_INET;
        b.sin_port = htons(port);
        b.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        rc = ::bind(s, wire::sockaddr_of(b), sizeof b);
    }
    ::close(s);
    return rc == 0;
}

}  // namespace

std::uint16_t free_port_pair() {
    // Below the kernel's ephemeral range (32768 up by default), so the outgoing connections of
    // tests running in parallel cannot take the pair between this check and the source's bind.
    constexpr std::uint16_t kLow = 20000, kSpan = 12000;
    static std::atomic<std::uint32_t> next{static_cast<std::uint32_t>(::getpid()) * 7919U};
    for (int attempt = 0; attempt < 200; ++attempt) {
        const auto port = static_cast<std::uint16_t>(kLow + (next.fetch_add(2) % kSpan));
        bool ok = true;
        for (std::uint16_t p : {port, static_cast<std::uint16_t>(port + 1)})
            ok = ok && loopback_port_free(p, false) && loopback_port_free(p, true);
        if (ok) return port;
    }
    return 0;
}

std::string unique_socket_name(const std::string& what) {
    static std::atomic<int> counter{0};
    return "apcgate-test-" + what + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter++);
}

}  // namespace apcgate::annotate_test
