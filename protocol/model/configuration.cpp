#include <string_view>
#include <unordered_set>

#include "protocol/model/capture_settings.hpp"

namespace apcgate::model {

std::size_t drop_repeated_counters(Configuration& config) {
    std::unordered_set<std::string_view> seen;
    seen.reserve(config.counters.size());
    std::vector<ConfiguredCounter> kept;
    kept.reserve(config.counters.size());  // never reallocates: the views in `seen` stay valid
    for (auto& c : config.counters) {
        if (seen.contains(c.counter)) continue;
        kept.push_back(std::move(c));
        seen.insert(kept.back().counter);
    }
    const std::size_t dropped = config.counters.size() - kept.size();
    config.counters = std::move(kept);
    return dropped;
}

}  // namespace apcgate::model
