// What the annotation sources saw: counts since the daemon started (a snapshot
// for tests and logs) plus, per capture, what each application sent.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>

#include "collectors/annotate/annotate_protocol.hpp"
#include "collectors/annotate/annotate_statistics.hpp"

namespace apcgate::collectors::annotate {

// One application (pid) in one capture.
struct AppCounts {
    std::uint64_t connections = 0;
    std::array<std::uint64_t, kCodeSlots> messages{};
    std::uint64_t bytes = 0;
};

// What the annotation sources saw: the counters of the table, plus detail that is not one.
struct AnnotateStats {
    AnnotateStatistics counts;                         // since the daemon started
    std::array<std::uint64_t, kCodeSlots> messages{};  // forwarded, by message code
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
