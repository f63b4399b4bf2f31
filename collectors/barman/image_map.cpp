#include "collectors/barman/image_map.hpp"

#include <algorithm>

namespace apcgate::collectors::barman {

ImageMap::ImageMap(const std::vector<MmapLayout>& layouts) {
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        const MmapLayout& m = layouts[i];
        const std::string name = m.image.empty() ? "[image " + std::to_string(i) + "]" : m.image;
        auto it = std::find(names_.begin(), names_.end(), name);
        if (it == names_.end()) it = names_.insert(names_.end(), name);
        ranges_.push_back({m.base_address, m.length, m.image_offset, m.task_id,
                           static_cast<std::int32_t>(it - names_.begin()) + 2});
    }
}

ImageMap::Hit ImageMap::find(std::uint64_t pc, std::optional<std::uint32_t> task) const {
    const Range* any = nullptr;
    for (const Range& r : ranges_) {
        if (pc < r.base || pc - r.base >= r.length) continue;
        if (task && r.task == task) {
            any = &r;
            break;
        }
        if (any == nullptr) any = &r;
    }
    if (any == nullptr) return {kUnknownCookie, static_cast<std::int64_t>(pc)};
    return {any->cookie, static_cast<std::int64_t>(pc - any->base + any->image_offset)};
}

const std::string& ImageMap::name(std::int32_t cookie) const {
    static const std::string kNone;
    const auto i = static_cast<std::size_t>(cookie - 2);
    return cookie >= 2 && i < names_.size() ? names_[i] : kNone;
}

}  // namespace apcgate::collectors::barman
