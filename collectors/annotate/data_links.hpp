// The library's data connections, during a capture: accepted on the abstract socket and on TCP
// (127.0.0.1 and ::1), each validated by its own StreamValidator and forwarded to the engine as
// External data under one id, then a disconnect when it closes (the id is free again only
// after that). Bounds: a connection limit, a handshake deadline, and a share of the hand-over
// per connection and in total (CaptureBudget); a connection over its share pauses (never the
// I/O thread), and one that stays over it at `flood_takes` engine polls in a row is dropped. Runs
// on the annotation I/O thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "collectors/annotate/annotate_config.hpp"
#include "collectors/annotate/annotate_log.hpp"
#include "collectors/annotate/annotate_stats.hpp"
#include "collectors/annotate/handover.hpp"
#include "collectors/annotate/reactor.hpp"
#include "collectors/annotate/stream_validator.hpp"

namespace apcgate::collectors::annotate {

class DataLinks {
  public:
    DataLinks(Reactor& reactor, Handover& handover, StatsBox& stats, Log& log,
              const AnnotateConfig& config)
        : reactor_(reactor), handover_(handover), stats_(stats), log_(log), config_(config) {}

    void begin_capture(const CaptureBudget& budget);  // opens the listeners
    void end_capture();  // closes them, then reads what each connection has left and closes it

    void on_listener(int fd);
    void on_readable(int fd);
    // The engine took the hand-over: count who was paused over its share, resume everyone.
    void after_take();
    // Whether the next take must be seen even if it finds nothing: a connection is paused (what
    // it read may wait in its validator, not in the hand-over), or counts takes over its share
    // in a row (an empty take ends the run).
    [[nodiscard]] bool wants_take_notice() const { return take_notice_; }
    // Handshake deadlines; returns the next one (or -1).
    std::int64_t on_tick(std::int64_t now_ns);
    [[nodiscard]] std::size_t links() const { return links_.size(); }

  private:
    struct Link {
        Fd fd;
        std::string endpoint;
        StreamValidator validator;
        std::optional<std::int32_t> id;  // allocated with the first forwarded byte
        std::int64_t accepted_ns = 0;
        std::size_t share_used = 0;  // bytes handed over since the engine's last poll
        bool paused = false;
        bool over_share = false;  // paused with data waiting beyond its share
        int saturated_takes = 0;
    };

    // One read; returns false when the link was closed.
    bool read_some(Link& link, std::size_t limit);
    void forward(Link& link, std::span<const std::uint8_t> bytes);
    // Closes a link: what the validator still holds goes out, then the disconnect.
    // `reason` empty: the application closed it.
    void close_link(int fd, const std::string& reason);
    void pause(Link& link);
    std::string describe(const Link& link) const;
    std::int32_t allocate_id();
    void log_capture_summary();

    Reactor& reactor_;
    Handover& handover_;
    StatsBox& stats_;
    Log& log_;
    const AnnotateConfig& config_;
    CaptureBudget budget_;
    std::vector<Fd> listeners_;
    std::unordered_map<int, std::unique_ptr<Link>> links_;
    std::vector<bool> id_used_;  // index = id
    std::vector<std::uint8_t> buffer_ = std::vector<std::uint8_t>(std::size_t{64} * 1024);
    std::vector<std::uint8_t> out_;
    bool take_notice_ = false;
};

}  // namespace apcgate::collectors::annotate
