#include "collectors/xray/tsc_rate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace apcgate::collectors::xray {

namespace {

// Stamps taken from each end of the run: 64 × 64 pairs are plenty for a median.
constexpr std::size_t kEndStamps = 64;

std::string hz_text(double hz) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f GHz", hz / 1e9);
    return buf;
}

}  // namespace

std::optional<MeasuredRate> measured_tsc_rate(std::span<const WallStamp> early,
                                              std::span<const WallStamp> late) {
    std::vector<WallStamp> all(early.begin(), early.end());
    all.insert(all.end(), late.begin(), late.end());
    if (all.size() < 2) return std::nullopt;
    std::sort(all.begin(), all.end(),
              [](const WallStamp& a, const WallStamp& b) { return a.tsc < b.tsc; });
    const std::size_t ends = std::min(kEndStamps, all.size());
    std::vector<double> rates;
    std::int64_t span = 0;
    for (std::size_t i = 0; i < ends; ++i) {
        for (std::size_t j = all.size() - ends; j < all.size(); ++j) {
            const WallStamp& a = all[i];
            const WallStamp& b = all[j];
            if (b.tsc <= a.tsc) continue;
            // Differences of monotonic ns fit: a hostile stamp is at worst a rate rejected below.
            const double ns =
                static_cast<double>(b.monotonic_ns) - static_cast<double>(a.monotonic_ns);
            if (ns < static_cast<double>(kMinRateSpanNs)) continue;
            rates.push_back(static_cast<double>(b.tsc - a.tsc) * 1e9 / ns);
            span = std::max(span, static_cast<std::int64_t>(ns));
        }
    }
    if (rates.empty()) return std::nullopt;
    const auto middle = rates.begin() + static_cast<std::ptrdiff_t>(rates.size() / 2);
    std::nth_element(rates.begin(), middle, rates.end());
    // A rate below 1 kHz or above 1 THz is no clock's: stamps that say so are not believed.
    if (!(*middle >= 1e3 && *middle <= 1e12)) return std::nullopt;
    return MeasuredRate{static_cast<std::uint64_t>(std::llround(*middle)), span};
}

TscRate choose_tsc_rate(std::uint64_t header_hz, const std::optional<MeasuredRate>& measured) {
    if (!measured) return {header_hz, {}};
    const double got = static_cast<double>(measured->hz);
    const std::string over = " over " + std::to_string(measured->span_ns / 1'000'000) + " ms";
    if (header_hz == 0) {
        return {measured->hz,
                "the header has no cycle frequency (the writer could not tell "
                "it); the log's clock stamps measure the TSC at " +
                    hz_text(got) + over + ", which times are converted with"};
    }
    const double claimed = static_cast<double>(header_hz);
    const double off = claimed / got - 1;
    if (std::fabs(off) <= kMaxRateDeviation) return {header_hz, {}};
    char pct[32];
    std::snprintf(pct, sizeof pct, "%+.1f%%", off * 100);
    return {measured->hz,
            "the header's cycle frequency, " + hz_text(claimed) + ", is " + pct +
                " off the rate the log's clock stamps measure for the TSC, " + hz_text(got) + over +
                " (LLVM's runtime takes cpufreq's cpuinfo_max_freq when the kernel has "
                "no tsc_freq_khz); times are converted with the measured rate, so durations are "
                "not " +
                std::string(off > 0 ? "short" : "long") + " by that much"};
}

}  // namespace apcgate::collectors::xray
