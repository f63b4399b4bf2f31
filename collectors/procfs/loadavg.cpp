#include "collectors/procfs/loadavg.hpp"

#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {

std::optional<std::int64_t> parse_hundredths(std::string_view field) {
    const auto dot = field.find('.');
    const std::string_view whole = field.substr(0, dot);
    const std::string_view frac =
        dot == std::string_view::npos ? std::string_view{} : field.substr(dot + 1);
    if (dot != std::string_view::npos && (frac.empty() || frac.size() > 2)) return std::nullopt;
    const auto w = parse_u64(whole);
    if (!w || *w > 1'000'000'000) return std::nullopt;
    std::int64_t f = 0;
    if (!frac.empty()) {
        const auto v = parse_u64(frac);
        if (!v) return std::nullopt;
        f = static_cast<std::int64_t>(*v) * (frac.size() == 1 ? 10 : 1);
    }
    return static_cast<std::int64_t>(*w) * 100 + f;
}

std::optional<LoadAverage> parse_loadavg(std::string_view text) {
    LoadAverage l;
    for (std::int64_t* slot : {&l.one, &l.five, &l.fifteen}) {
        const auto v = parse_hundredths(next_field(text));
        if (!v) return std::nullopt;
        *slot = *v;
    }
    return l;
}

}  // namespace apcgate::collectors::procfs
