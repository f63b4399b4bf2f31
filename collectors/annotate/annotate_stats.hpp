// What the annotation sources saw, declared once: counts since the daemon started (a snapshot
// for tests and logs) plus, per capture, what each application sent.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>

#include "collectors/annotate/annotate_protocol.hpp"

namespace apcgate::collectors::annotate {

// One application (pid) in one capture.
struct AppCounts {
    std::uint64_t connections = 0;
    std::array<std::uint64_t, kCodeSlots> messages{};
    std::uint64_t bytes = 0;
};

struct AnnotateStats {
    // Data connections (the library's protocol, carried in External frames).
    std::uint64_t connections = 0;       // accepted
    std::uint64_t refused = 0;           // over the connection limit
    std::uint64_t dropped_protocol = 0;  // not the protocol, malformed or over a size limit
    std::uint64_t dropped_flood = 0;     // kept its share of the hand-over full for too long
    std::uint64_t dropped_no_handshake = 0;
    std::uint64_t truncated = 0;  // closed mid-record (normal: forwarded as it arrived)
    std::uint64_t forwarded_bytes = 0;
    std::array<std::uint64_t, kCodeSlots> messages{};  // by code
    // Parent connections (capture-start notifications).
    std::uint64_t parent_clients = 0;   // accepted
    std::uint64_t parent_notified = 0;  // start bytes written
    std::uint64_t parent_refused = 0;   // over the limit or not reading their notifications
    // The text form.
    std::uint64_t text_lines = 0;      // forwarded as Annotate messages
    std::uint64_t text_truncated = 0;  // cut at the line limit (and forwarded)
    std::uint64_t text_bad = 0;        // not text (starts with 0x1C): reported, not forwarded
    std::uint64_t text_discarded = 0;  // arrived while no capture ran
    std::uint64_t text_clients = 0;    // text socket connections accepted
    // This capture's data connections, by the pid of their handshake.
    std::map<std::uint32_t, AppCounts> apps;
};

class StatsBox {
  public:
    template <typename F>
    void update(F&& f) {
        std::lock_guard lock(mu_);
        f(stats_);
    }
    AnnotateStats snapshot() const {
        std::lock_guard lock(mu_);
        return stats_;
    }

  private:
    mutable std::mutex mu_;
    AnnotateStats stats_;
};

}  // namespace apcgate::collectors::annotate
