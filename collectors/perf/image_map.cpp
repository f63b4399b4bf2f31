#include "collectors/perf/image_map.hpp"

namespace apcgate::collectors::perf {

std::int32_t CookieTable::cookie(const std::string& image) {
    if (image.empty()) return kUnknownCookie;
    auto it = by_name_.find(image);
    if (it != by_name_.end()) return it->second;
    if (names_.size() >= kMaxCookies) return kUnknownCookie;
    const auto c = static_cast<std::int32_t>(names_.size() + 2);
    names_.push_back(image);
    announced_.push_back(false);
    by_name_.emplace(image, c);
    return c;
}

void CookieTable::announce(std::int32_t cookie, model::Nanos ts, std::int32_t core,
                           std::vector<model::Event>& out) {
    if (cookie < 2) return;
    const auto i = static_cast<std::size_t>(cookie - 2);
    if (i >= names_.size() || announced_[i]) return;
    announced_[i] = true;
    out.emplace_back(model::CookieName{ts, core, cookie, names_[i]});
}

void AddressSpace::map(std::uint64_t start, std::uint64_t len, std::uint64_t pgoff,
                       std::int32_t cookie) {
    const std::uint64_t end = start + len;
    if (len == 0 || end < start) return;
    auto it = maps_.upper_bound(start);
    if (it != maps_.begin()) --it;
    while (it != maps_.end() && it->second.start < end) {
        const Mapping m = it->second;
        if (m.end <= start) {
            ++it;
            continue;
        }
        it = maps_.erase(it);
        // Keep the parts of the old mapping on either side of the new one.
        if (m.start < start) maps_[m.start] = Mapping{m.start, start, m.pgoff, m.cookie};
        if (m.end > end) maps_[end] = Mapping{end, m.end, m.pgoff + (end - m.start), m.cookie};
    }
    if (maps_.size() >= kMaxMappings) return;
    maps_[start] = Mapping{start, end, pgoff, cookie};
}

std::optional<model::StackFrame> AddressSpace::resolve(std::uint64_t ip) const {
    auto it = maps_.upper_bound(ip);
    if (it == maps_.begin()) return std::nullopt;
    --it;
    const Mapping& m = it->second;
    if (ip >= m.end) return std::nullopt;
    return model::StackFrame{m.cookie, static_cast<std::int64_t>(ip - m.start + m.pgoff)};
}

}  // namespace apcgate::collectors::perf
