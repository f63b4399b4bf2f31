// Puts the timeline changes of a Perf-framing capture back in time order across CPUs. Each
// CPU's records arrive in time order, but the PERF_DATA frames take one CPU's ring after
// another, so a thread that leaves one CPU and resumes on another can be seen resuming first:
// its wait would be measured from the wrong switch. Changes wait here until every CPU known
// (online, or with records) has reached their time (the lowest of the CPUs' latest record
// times), then go out in time order (ties in arrival order). A CPU that stays silent would hold
// everything back, so at most kMaxPending changes wait; past that the oldest go out anyway, and
// a change that then arrives behind one already out is counted (late()).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::daemon::analysis {

struct TimelineChange {
    enum class Kind : std::uint8_t { Switch, Exit };
    std::int64_t ts = 0;
    std::int32_t cpu = 0;
    std::int32_t tid = 0;  // Switch: the thread that runs from now on (<= 0 none); Exit: who exits
    model::WaitState wait = model::WaitState::Other;  // Switch: why the previous thread stopped
    Kind kind = Kind::Switch;
};

class SwitchOrder {
  public:
    static constexpr std::size_t kMaxPending = 1u << 18;

    explicit SwitchOrder(std::function<void(const TimelineChange&)> out) : out_(std::move(out)) {}

    // An online CPU (ONLINE_CPU): changes wait for its records. OFFLINE_CPU forgets it.
    void expect(std::int32_t cpu);
    void forget(std::int32_t cpu);
    // A record of `cpu` at `ts`: that CPU has nothing earlier to come.
    void reached(std::int32_t cpu, std::int64_t ts);
    void add(const TimelineChange& c);
    // Everything still waiting, in order; call at the end.
    void flush();
    // Changes that arrived after a later one had gone out: applied out of order.
    [[nodiscard]] std::uint64_t late() const { return late_; }

  private:
    struct Pending {
        TimelineChange change;
        std::uint64_t seq = 0;
        bool operator>(const Pending& o) const {
            return change.ts != o.change.ts ? change.ts > o.change.ts : seq > o.seq;
        }
    };
    void release(std::int64_t up_to);
    void pop();
    void recompute_low();

    std::function<void(const TimelineChange&)> out_;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
    std::map<std::int32_t, std::int64_t> latest_;  // cpu -> latest record time
    std::int64_t low_ = 0;                         // the lowest of them
    std::int32_t low_cpu_ = -1;                    // and its CPU
    std::uint64_t seq_ = 0;
    std::optional<std::int64_t> last_out_;  // time of the latest change gone out
    std::uint64_t late_ = 0;
};

}  // namespace apcgate::daemon::analysis
