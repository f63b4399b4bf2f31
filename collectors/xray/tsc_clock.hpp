// TSC ticks to nanoseconds with the log's cycle frequency (the header's, or the rate its clock
// stamps measure when the header's is wrong: tsc_rate.hpp), on the log's own absolute
// timeline (ns = tsc * 1e9 / frequency), as a fixed-point multiply so the per-event cost is one
// 64x64->128-bit product: ticks are taken relative to the log's earliest TSC and scaled by
// 1e9 / frequency in 32.32 fixed point (error below 1 ns per second of trace). Results saturate
// instead of overflowing on absurd frequencies or TSCs.
#pragma once

#include <cstdint>
#include <limits>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::xray {

class TscClock {
  public:
    TscClock() = default;
    // `frequency` must be > 0.
    TscClock(std::uint64_t frequency, std::uint64_t origin_tsc) : origin_tsc_(origin_tsc) {
        __extension__ using u128 = unsigned __int128;
        origin_ns_ = saturate(static_cast<u128>(origin_tsc) * 1'000'000'000U / frequency);
        scale_ = saturate64((static_cast<u128>(1'000'000'000U) << 32) / frequency);
    }

    [[nodiscard]] model::Nanos to_ns(std::uint64_t tsc) const {
        __extension__ using u128 = unsigned __int128;
        if (tsc >= origin_tsc_) {
            const u128 delta = (static_cast<u128>(tsc - origin_tsc_) * scale_) >> 32;
            return saturate(static_cast<u128>(origin_ns_) + delta);
        }
        const u128 back = (static_cast<u128>(origin_tsc_ - tsc) * scale_) >> 32;
        return back >= static_cast<u128>(origin_ns_) ? 0
                                                     : origin_ns_ - static_cast<model::Nanos>(back);
    }
    [[nodiscard]] model::Nanos origin_ns() const { return origin_ns_; }

  private:
    // Far below INT64_MAX, so that later subtractions and additions of ns cannot overflow.
    static constexpr model::Nanos kMaxNs = std::numeric_limits<model::Nanos>::max() / 4;

    template <class U>
    static model::Nanos saturate(U v) {
        return v > static_cast<U>(kMaxNs) ? kMaxNs : static_cast<model::Nanos>(v);
    }
    template <class U>
    static std::uint64_t saturate64(U v) {
        return v > std::numeric_limits<std::uint64_t>::max()
                   ? std::numeric_limits<std::uint64_t>::max()
                   : static_cast<std::uint64_t>(v);
    }

    std::uint64_t origin_tsc_ = 0;
    model::Nanos origin_ns_ = 0;
    std::uint64_t scale_ = std::uint64_t{1} << 32;
};

// One thread's view of the clock: its times never go backwards. A TSC read on another CPU a
// little behind is held at the thread's last time, so the merged timeline stays ordered.
class ThreadClock {
  public:
    explicit ThreadClock(const TscClock& clock) : clock_(clock) {}
    model::Nanos stamp(std::uint64_t tsc) {
        const model::Nanos ns = clock_.to_ns(tsc);
        last_ = ns > last_ ? ns : last_;
        return last_;
    }
    [[nodiscard]] model::Nanos last() const { return last_; }
    void set_last(model::Nanos ns) { last_ = ns; }

  private:
    TscClock clock_;
    model::Nanos last_ = std::numeric_limits<model::Nanos>::min();
};

}  // namespace apcgate::collectors::xray
