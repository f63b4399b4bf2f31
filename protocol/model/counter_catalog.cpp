#include "protocol/model/counter_catalog.hpp"

#include <algorithm>
#include <charconv>

namespace apcgate::model {

const char* to_string(CounterClass c) {
    switch (c) {
        case CounterClass::Delta:
            return "delta";
        case CounterClass::Incident:
            return "incident";
        case CounterClass::Absolute:
            return "absolute";
        case CounterClass::Activity:
            return "activity";
    }
    return "delta";
}

const char* to_string(Display d) {
    switch (d) {
        case Display::Default:
            return "";
        case Display::Accumulate:
            return "accumulate";
        case Display::Hertz:
            return "hertz";
        case Display::Maximum:
            return "maximum";
        case Display::Average:
            return "average";
        case Display::Minimum:
            return "minimum";
    }
    return "";
}

bool CounterCatalog::add(CounterSpec spec) {
    if (find(spec.counter) != nullptr || find_set_for_slot(spec.counter) != nullptr) return false;
    counters_.push_back(std::move(spec));
    return true;
}

bool CounterCatalog::add_set(CounterSetSpec set) {
    const bool dup = std::any_of(sets_.begin(), sets_.end(),
                                 [&](const CounterSetSpec& s) { return s.name == set.name; });
    if (dup || set.count <= 0) return false;
    sets_.push_back(std::move(set));
    return true;
}

const CounterSpec* CounterCatalog::find(std::string_view counter) const {
    for (const auto& c : counters_)
        if (c.counter == counter) return &c;
    return nullptr;
}

const CounterSetSpec* CounterCatalog::find_set_for_slot(std::string_view slot) const {
    for (const auto& s : sets_) {
        if (slot.size() <= s.name.size() || slot.substr(0, s.name.size()) != s.name) continue;
        const std::string_view digits = slot.substr(s.name.size());
        int index = -1;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
        if (ec == std::errc() && p == digits.data() + digits.size() && index >= 0 &&
            index < s.count)
            return &s;
    }
    return nullptr;
}

std::vector<std::string> CounterCatalog::available_names() const {
    std::vector<std::string> out;
    for (const auto& s : sets_)
        for (int i = 0; i < s.count; ++i) out.push_back(s.name + std::to_string(i));
    for (const auto& c : counters_) out.push_back(c.counter);
    return out;
}

Configuration CounterCatalog::defaults() const {
    Configuration cfg;
    for (const auto& s : sets_)
        for (const auto& [slot, event] : s.default_slots)
            cfg.counters.push_back({slot, event, {}, {}});
    for (const auto& c : counters_)
        if (c.enabled_by_default) cfg.counters.push_back({c.counter, c.event, {}, {}});
    return cfg;
}

CaptureCounters CaptureCounters::assign(const CounterCatalog& catalog,
                                        const Configuration& config) {
    CaptureCounters out;
    CounterKey next = 3;  // keys 0, 1 and 2 are the block counter frame's timestamp/pid/core
    for (const auto& c : config.counters) {
        if (out.by_name_.count(c.counter) != 0) continue;  // configured twice: first one wins
        KeyedCounter k;
        k.counter = c.counter;
        k.count = c.count;
        k.cores = c.cores;
        if (const CounterSpec* spec = catalog.find(c.counter)) {
            k.spec = spec;
            k.event = c.event ? c.event : spec->event;
            k.delivery = spec->delivery;
        } else if (const CounterSetSpec* set = catalog.find_set_for_slot(c.counter)) {
            if (!c.event) {  // a slot without an event counts nothing
                out.ignored_.push_back(c.counter);
                continue;
            }
            k.set = set;
            k.event = c.event;
        } else {
            out.ignored_.push_back(c.counter);
            continue;
        }
        k.key = next++;
        out.by_name_.emplace(k.counter, out.enabled_.size());
        out.enabled_.push_back(std::move(k));
    }
    return out;
}

std::optional<CounterKey> CaptureCounters::key(std::string_view counter) const {
    auto it = by_name_.find(counter);
    if (it == by_name_.end()) return std::nullopt;
    return enabled_[it->second].key;
}

const KeyedCounter* CaptureCounters::by_key(CounterKey key) const {
    if (key < 3 || static_cast<std::size_t>(key - 3) >= enabled_.size()) return nullptr;
    return &enabled_[static_cast<std::size_t>(key - 3)];
}

}  // namespace apcgate::model
