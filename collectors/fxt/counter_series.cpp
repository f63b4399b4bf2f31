#include "collectors/fxt/counter_series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collectors/fxt/text.hpp"

namespace apcgate::collectors::fxt {

namespace {
constexpr double kExactLimit = 9007199254740992.0;  // 2^53: doubles stay exact below it
constexpr int kMaxDecimals = 6;
}  // namespace

bool CounterSeriesSet::is_number(const Arg& a) {
    switch (a.type) {
        case ArgType::Int32:
        case ArgType::UInt32:
        case ArgType::Int64:
        case ArgType::UInt64:
        case ArgType::Double:
            return true;
        default:
            return false;
    }
}

const std::string& CounterSeriesSet::key(std::string_view event, std::string_view arg) const {
    key_.assign(event);
    key_ += '\x1f';
    key_ += arg;
    return key_;
}

void CounterSeriesSet::observe(std::string_view category, std::string_view event, const Arg& arg) {
    if (!is_number(arg)) return;
    auto it = index_.find(key(event, arg.name));
    if (it == index_.end()) {
        if (series_.size() >= kMaxSeries) return;
        CounterSeries s;
        s.category = clean_utf8(category);
        s.event = clean_utf8(event);
        s.arg = clean_utf8(arg.name);
        s.identifier = counter_identifier(s.event, s.arg);
        for (int n = 2; identifiers_.count(s.identifier) != 0; ++n)
            s.identifier = counter_identifier(s.event, s.arg) + "_" + std::to_string(n);
        identifiers_.insert(s.identifier);
        it = index_.emplace(key_, series_.size()).first;
        series_.push_back(std::move(s));
    }
    CounterSeries& s = series_[it->second];
    if (arg.type == ArgType::Double && std::isfinite(arg.d())) {
        s.fractional = s.fractional || arg.d() != std::trunc(arg.d());
        s.max_abs = std::max(s.max_abs, std::fabs(arg.d()));
    }
}

void CounterSeriesSet::finish() {
    for (auto& s : series_) {
        s.decimals = 0;
        if (!s.fractional) continue;
        while (s.decimals < kMaxDecimals &&
               s.max_abs * std::pow(10.0, s.decimals + 1) < kExactLimit)
            ++s.decimals;
    }
}

std::optional<std::size_t> CounterSeriesSet::find(std::string_view event,
                                                  std::string_view arg) const {
    auto it = index_.find(key(event, arg));
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::int64_t> CounterSeriesSet::value(std::size_t series, const Arg& arg) const {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    switch (arg.type) {
        case ArgType::Int32:
        case ArgType::Int64:
            return arg.i();
        case ArgType::UInt32:
        case ArgType::UInt64:
            return static_cast<std::int64_t>(std::min(arg.u(), kMax));
        case ArgType::Double: {
            if (!std::isfinite(arg.d())) return std::nullopt;
            const double scaled = arg.d() * std::pow(10.0, series_.at(series).decimals);
            // Clamp what a later redefinition could push past the prescan's range.
            const double limit = 9.2e18;
            return static_cast<std::int64_t>(std::llround(std::clamp(scaled, -limit, limit)));
        }
        default:
            return std::nullopt;
    }
}

void CounterSeriesSet::declare(model::CounterCatalog& catalog) const {
    for (const auto& s : series_) {
        model::CounterSpec spec;
        spec.counter = s.identifier;
        spec.category = "FXT";
        spec.title = s.event;
        spec.name = s.arg;
        spec.description = "FXT counter event '" + s.event + "' argument '" + s.arg + "'" +
                           (s.category.empty() ? "" : " (category " + s.category + ")");
        spec.cls = model::CounterClass::Absolute;
        spec.multiplier = std::pow(10.0, -s.decimals);
        spec.delivery = model::Delivery::Single;
        catalog.add(std::move(spec));
    }
}

}  // namespace apcgate::collectors::fxt
