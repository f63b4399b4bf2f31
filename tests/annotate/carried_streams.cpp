#include "carried_streams.hpp"

#include <map>

namespace apcgate::annotate_test {

std::vector<CarriedStream> carried_streams(const std::vector<model::Event>& events,
                                           std::vector<std::string>& problems, bool check_order) {
    std::vector<CarriedStream> done;
    std::map<std::int32_t, CarriedStream> open;
    model::Nanos last_ts = 0;
    for (const auto& e : events) {
        if (check_order && model::timestamp_of(e) < last_ts)
            problems.push_back("timestamps go backwards");
        last_ts = model::timestamp_of(e);
        if (const auto* d = std::get_if<model::ExternalData>(&e)) {
            if (d->bytes.empty()) problems.push_back("empty data for id " + std::to_string(d->id));
            auto& s = open[d->id];
            s.id = d->id;
            s.bytes.insert(s.bytes.end(), d->bytes.begin(), d->bytes.end());
        } else if (const auto* x = std::get_if<model::ExternalDisconnect>(&e)) {
            auto it = open.find(x->id);
            if (it == open.end()) {
                problems.push_back("disconnect of id " + std::to_string(x->id) + " with no data");
                continue;
            }
            it->second.disconnected = true;
            done.push_back(std::move(it->second));
            open.erase(it);
        }
    }
    for (auto& [id, s] : open) done.push_back(std::move(s));
    return done;
}

std::uint32_t handshake_tid(const Bytes& s) {
    if (s.size() < 15) return 0;
    return static_cast<std::uint32_t>(s[11]) | static_cast<std::uint32_t>(s[12]) << 8 |
           static_cast<std::uint32_t>(s[13]) << 16 | static_cast<std::uint32_t>(s[14]) << 24;
}

}  // namespace apcgate::annotate_test
