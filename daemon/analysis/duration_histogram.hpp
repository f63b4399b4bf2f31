// Durations of one span name in bounded memory: a log-linear histogram (32 buckets per power of
// two, exact below 32 ns), so a percentile is the midpoint of the bucket that holds it and is
// within 1/64 (1.6 %) of a duration of that rank. Count, total, min and max are exact. Buckets
// are kept only between the lowest and the highest one used, so a name whose durations span a
// few decades costs a few hundred counters, whatever the number of spans.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace apcgate::daemon::analysis {

class DurationHistogram {
  public:
    static constexpr int kSubBits = 5;  // 32 buckets per power of two
    static constexpr std::uint32_t kSub = 1u << kSubBits;

    void add(std::int64_t ns) {
        if (ns < 0) ns = 0;
        const auto v = static_cast<std::uint64_t>(ns);
        if (count_ == 0) {
            min_ = max_ = ns;
        } else {
            min_ = std::min(min_, ns);
            max_ = std::max(max_, ns);
        }
        ++count_;
        total_ += ns;
        const std::uint32_t b = bucket_of(v);
        if (buckets_.empty()) {
            base_ = b;
            buckets_.assign(1, 0);
        } else if (b < base_) {
            buckets_.insert(buckets_.begin(), base_ - b, 0);
            base_ = b;
        } else if (b - base_ >= buckets_.size()) {
            buckets_.resize(b - base_ + 1, 0);
        }
        ++buckets_[b - base_];
    }

    [[nodiscard]] std::uint64_t count() const { return count_; }
    [[nodiscard]] std::int64_t total() const { return total_; }
    [[nodiscard]] std::int64_t min() const { return min_; }
    [[nodiscard]] std::int64_t max() const { return max_; }

    // The duration at quantile q (0 < q <= 1) by nearest rank: the midpoint of the bucket of
    // the ceil(q * count)-th shortest duration, clamped to [min, max]. 0 when empty.
    [[nodiscard]] std::int64_t quantile(double q) const {
        if (count_ == 0) return 0;
        auto rank = static_cast<std::uint64_t>(q * static_cast<double>(count_) + 0.999999);
        rank = std::clamp<std::uint64_t>(rank, 1, count_);
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i < buckets_.size(); ++i) {
            seen += buckets_[i];
            if (seen >= rank) {
                const auto b = static_cast<std::uint32_t>(base_ + i);
                const std::uint64_t lo = lower_bound(b);
                const std::uint64_t mid = lo + (width(b) - 1) / 2;
                return std::clamp(static_cast<std::int64_t>(mid), min_, max_);
            }
        }
        return max_;
    }

    static std::uint32_t bucket_of(std::uint64_t v) {
        if (v < kSub) return static_cast<std::uint32_t>(v);
        const int e = 63 - __builtin_clzll(v);  // >= kSubBits
        const int shift = e - kSubBits;
        const auto sub = static_cast<std::uint32_t>((v >> shift) & (kSub - 1));
        return kSub + static_cast<std::uint32_t>(shift) * kSub + sub;
    }
    static std::uint64_t lower_bound(std::uint32_t b) {
        if (b < kSub) return b;
        const std::uint32_t shift = (b - kSub) / kSub;
        const std::uint64_t sub = (b - kSub) % kSub;
        return (kSub + sub) << shift;
    }
    static std::uint64_t width(std::uint32_t b) {
        if (b < kSub) return 1;
        return std::uint64_t{1} << ((b - kSub) / kSub);
    }

  private:
    std::uint64_t count_ = 0;
    std::int64_t total_ = 0;
    std::int64_t min_ = 0, max_ = 0;
    std::uint32_t base_ = 0;
    std::vector<std::uint64_t> buckets_;  // buckets_[i] counts bucket base_ + i
};

}  // namespace apcgate::daemon::analysis
