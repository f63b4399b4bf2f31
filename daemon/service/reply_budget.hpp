// A token bucket for discovery answers. A 12-byte request earns an 84-byte answer sent to
// whatever source address the request claims, so a spoofed flood would turn the board into a
// reflector; Streamline asks a handful of times per scan, so a small budget costs nothing.
// Time is passed in, so tests need no clock.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace apcgate::daemon {

class ReplyBudget {
  public:
    using Clock = std::chrono::steady_clock;

    ReplyBudget(double per_second, double burst)
        : rate_(per_second), burst_(burst), tokens_(burst) {}

    // True if an answer may be sent at `now` (and spends one token).
    bool take(Clock::time_point now) {
        if (started_) {
            const std::chrono::duration<double> dt = now - last_;
            if (dt.count() > 0) tokens_ = std::min(burst_, tokens_ + dt.count() * rate_);
        }
        started_ = true;
        last_ = std::max(last_, now);
        if (tokens_ < 1.0) {
            ++refused_;
            return false;
        }
        tokens_ -= 1.0;
        return true;
    }

    [[nodiscard]] std::uint64_t refused() const { return refused_; }

  private:
    double rate_;
    double burst_;
    double tokens_;
    Clock::time_point last_{};
    bool started_ = false;
    std::uint64_t refused_ = 0;
};

}  // namespace apcgate::daemon
