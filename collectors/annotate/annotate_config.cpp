#include "collectors/annotate/annotate_config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace apcgate::collectors::annotate {

CaptureBudget budget_for(const AnnotateConfig& config, std::int64_t poll_period_ns) {
    constexpr std::int64_t kSecond = 1'000'000'000;
    const std::int64_t period = poll_period_ns > 0 ? poll_period_ns : kSecond / 10;
    const auto per_poll = [period](std::size_t rate, std::size_t floor) {
        const auto bytes =
            static_cast<std::size_t>(static_cast<long double>(rate) * period / kSecond);
        return std::max(bytes, floor);
    };
    CaptureBudget b;
    b.share = per_poll(config.connection_rate, std::size_t{64} * 1024);
    b.total = std::max(per_poll(config.total_rate, std::size_t{256} * 1024), b.share);
    // A visual of the largest size takes this long at the connection's rate: not a flood.
    const std::int64_t visual_ns =
        static_cast<std::int64_t>(static_cast<long double>(config.stream.max_visual_bytes) /
                                  static_cast<long double>(b.share) * period);
    const std::int64_t patience = std::max(config.flood_ns, visual_ns);
    b.flood_takes =
        static_cast<int>(std::min<std::int64_t>((patience + period - 1) / period + 1, 1'000'000));
    return b;
}

std::filesystem::path default_text_fifo() {
    if (::geteuid() == 0) return "/run/apcgate/annotate";
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime != nullptr && *runtime == '/')
        return std::filesystem::path(runtime) / "apcgate" / "annotate";
    return {};
}

AnnotateConfig make_config(const std::string& socket_name, std::uint16_t tcp_port,
                           const std::string& fifo) {
    AnnotateConfig c;
    c.socket_name = socket_name;
    c.tcp_port = tcp_port;
    if (fifo != "none")
        c.text_fifo = fifo.empty() ? default_text_fifo() : std::filesystem::path(fifo);
    if (!c.text_fifo.empty()) c.text_socket = c.text_fifo.string() + ".sock";
    // A FIFO's writer cannot be known; the daemon's own pid names a thread Streamline knows
    // (it is in the capture's process list), where 0 would name none.
    c.fifo_tid = static_cast<std::int32_t>(::getpid());
    return c;
}

}  // namespace apcgate::collectors::annotate
