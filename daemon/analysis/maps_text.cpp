#include "daemon/analysis/maps_text.hpp"

namespace apcgate::daemon::analysis {

MapsSkipped for_each_executable_mapping(
    std::string_view text, const std::function<bool(const collectors::perf::MapsEntry&)>& each) {
    MapsSkipped skipped;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.empty()) continue;
        if (line.size() > kMaxMapsLineBytes) {
            ++skipped.too_long;
            continue;
        }
        std::size_t malformed = 0;
        // One line at a time: the parser's result holds at most this line's mapping.
        for (const auto& m : collectors::perf::parse_maps(line, &malformed))
            if (!each(m)) ++skipped.past_limit;
        skipped.malformed += malformed;
    }
    return skipped;
}

}  // namespace apcgate::daemon::analysis
