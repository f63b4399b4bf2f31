// One catalog of every counter the collectors of this target can provide. Collectors declare
// counters (and counter_sets for PMU slots) once, at probe time; the catalog is what the events,
// counters, defaults and captured XML documents are written from. A capture then turns the
// delivered configuration into CaptureCounters: the enabled counters, each with its key (> 2),
// fixed for the whole capture and identical in captured.xml and in every frame.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/model/capture_settings.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::model {

enum class CounterClass { Delta, Incident, Absolute, Activity };
enum class Display { Default, Accumulate, Hertz, Maximum, Average, Minimum };
// Which frame carries a counter's values; the seed forbids mixing them for one key.
enum class Delivery { Block, Single };

const char* to_string(CounterClass c);
const char* to_string(Display d);  // "" for Default

struct CounterSpec {
    std::string counter;      // unique name, the events XML `counter` attribute
    std::string category;     // category it is listed under in events XML
    std::string title;        // shown before the name in Streamline (groups charts)
    std::string name;         // shown after the title
    std::string description;  // tooltip
    CounterClass cls = CounterClass::Delta;
    Display display = Display::Default;
    std::string units;
    double multiplier = 1.0;
    bool per_cpu = false;
    std::optional<std::uint32_t> event;  // fixed event number (e.g. 0xff for a cycle counter)
    Delivery delivery = Delivery::Block;
    std::string series_composition;  // stacked | overlay | log10 ("" = default)
    std::string rendering_type;      // filled | bar | line ("" = default)
    bool average_selection = false;
    bool average_cores = false;
    bool percentage = false;
    std::optional<std::uint32_t> color;   // 0x00RRGGBB
    std::vector<std::string> activities;  // activity1..N names (class Activity)
    std::vector<std::uint32_t> activity_colors;
    int cores = 0;  // class Activity: processing units (0 = unset)
    bool supports_event_based_sampling = false;
    bool enabled_by_default = true;  // part of the defaults configuration
};

// A counter_set of programmable slots (PREFIX_cnt0..N-1) and the events they may count.
struct CounterSetSpec {
    std::string name;      // e.g. "ARMv8_Cortex_A53_cnt"
    int count = 0;         // number of slots
    std::string category;  // category that lists the events
    std::string title;
    std::string description;
    bool per_cpu = true;
    bool supports_event_based_sampling = false;
    struct Event {
        std::uint32_t event = 0;
        std::string title, name, description, units;
        CounterClass cls = CounterClass::Delta;
        Display display = Display::Default;
    };
    std::vector<Event> events;
    std::vector<std::pair<std::string, std::uint32_t>> default_slots;  // (slot, event) pairs
};

class CounterCatalog {
  public:
    // Returns false (and changes nothing) if a counter of that name is already declared.
    bool add(CounterSpec spec);
    bool add_set(CounterSetSpec set);

    [[nodiscard]] const std::vector<CounterSpec>& counters() const { return counters_; }
    [[nodiscard]] const std::vector<CounterSetSpec>& sets() const { return sets_; }
    [[nodiscard]] const CounterSpec* find(std::string_view counter) const;
    // The set a slot name like "PREFIX_cnt3" belongs to (with a valid index), if any.
    [[nodiscard]] const CounterSetSpec* find_set_for_slot(std::string_view slot) const;
    // Every counter name Streamline may configure: counters and every slot of every set.
    [[nodiscard]] std::vector<std::string> available_names() const;
    // The configuration used when none was delivered.
    [[nodiscard]] Configuration defaults() const;

  private:
    std::vector<CounterSpec> counters_;
    std::vector<CounterSetSpec> sets_;
};

// One enabled counter in a capture.
struct KeyedCounter {
    CounterKey key = 0;
    std::string counter;                  // name as configured (a counter or a set slot)
    const CounterSpec* spec = nullptr;    // for declared counters
    const CounterSetSpec* set = nullptr;  // for slots
    std::optional<std::uint32_t> event;
    std::optional<std::int64_t> count;
    std::optional<int> cores;
    Delivery delivery = Delivery::Block;
};

class CaptureCounters {
  public:
    // Keys every configured counter that the catalog knows, in configuration order, from 3 up;
    // unknown names are skipped (the seed says they are ignored) and listed in `ignored`.
    static CaptureCounters assign(const CounterCatalog& catalog, const Configuration& config);

    [[nodiscard]] const std::vector<KeyedCounter>& enabled() const { return enabled_; }
    [[nodiscard]] const std::vector<std::string>& ignored() const { return ignored_; }
    [[nodiscard]] std::optional<CounterKey> key(std::string_view counter) const;
    [[nodiscard]] const KeyedCounter* by_key(CounterKey key) const;

  private:
    std::vector<KeyedCounter> enabled_;
    std::vector<std::string> ignored_;
    std::map<std::string, std::size_t, std::less<>> by_name_;
};

}  // namespace apcgate::model
