#include "collectors/barman/counter_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "collectors/barman/cpu_types.hpp"

namespace apcgate::collectors::barman {
namespace {

using model::CounterClass;
using model::Display;

std::string event_hex(std::uint32_t event) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%02x", static_cast<unsigned>(event));
    return b;
}

// Counter names are XML attribute values and Streamline identifiers: letters, digits and '_'.
std::string identifier(const std::string& s) {
    std::string out;
    for (const char ch : s) {
        const bool word =
            (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        if (word)
            out.push_back(ch);
        else if (!out.empty() && out.back() != '_')
            out.push_back('_');
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    return out;
}

CounterClass class_of(std::uint8_t c) {
    return c == 2 ? CounterClass::Incident : c == 3 ? CounterClass::Absolute : CounterClass::Delta;
}

Display display_of(std::uint8_t d) {
    switch (d) {
        case 1:
            return Display::Accumulate;
        case 2:
            return Display::Average;
        case 3:
            return Display::Hertz;
        case 4:
            return Display::Maximum;
        case 5:
            return Display::Minimum;
        default:
            return Display::Default;
    }
}

const char* composition_of(std::uint8_t c) {
    return c == 1 ? "stacked" : c == 2 ? "overlay" : c == 3 ? "log10" : "";
}
const char* rendering_of(std::uint8_t r) {
    return r == 1 ? "filled" : r == 2 ? "line" : r == 3 ? "bar" : "";
}

// PMU counters and sets, grouped by core type (several MIDRs may share one prefix).
void plan_pmu(const Header& h, CounterPlan& plan) {
    struct TypeInfo {
        CpuType cpu;
        std::set<std::uint32_t> events;
        int slots = 0;  // programmable counters (the cycle counter excluded)
    };
    std::map<std::string, TypeInfo> types;
    std::vector<std::string> order;
    plan.pmu_names.resize(h.cores.size());
    for (std::size_t core = 0; core < h.cores.size(); ++core) {
        const PmuSettings& s = h.cores[core];
        if (!s.configured()) continue;
        plan.cores = static_cast<int>(core) + 1;
        const CpuType cpu = cpu_type_of(s.midr);
        auto [it, fresh] = types.try_emplace(cpu.prefix, TypeInfo{cpu, {}, 0});
        if (fresh) order.push_back(cpu.prefix);
        int slots = 0;
        for (const std::uint32_t type : s.counter_types) {
            if (type != kCycleCounterType) ++slots;
            it->second.events.insert(type);
            plan.pmu_names[core].push_back(type == kCycleCounterType
                                               ? cpu.prefix + "_ccnt"
                                               : cpu.prefix + "_event_" + event_hex(type));
        }
        it->second.slots = std::max(it->second.slots, slots);
    }
    for (const std::string& prefix : order) {
        const TypeInfo& t = types[prefix];
        model::CounterSetSpec set;
        set.name = prefix + "_cnt";
        set.count = t.slots;
        set.category = t.cpu.core_name;
        set.title = t.cpu.core_name;
        set.description = t.cpu.core_name + " PMU event counters";
        for (const std::uint32_t e : t.events) {
            model::CounterSpec c;
            const bool cycles = e == kCycleCounterType;
            c.counter = cycles ? prefix + "_ccnt" : prefix + "_event_" + event_hex(e);
            c.category = t.cpu.core_name;
            c.title = t.cpu.core_name;
            c.name = cycles ? "Cycles" : pmu_event_name(e);
            c.description =
                cycles
                    ? "Processor cycles (the PMU cycle counter)"
                    : pmu_event_name(e) + " (Arm PMU event " + event_hex(e) +
                          (pmu_event_mnemonic(e).empty() ? "" : ", " + pmu_event_mnemonic(e)) + ")";
            c.per_cpu = true;
            c.event = cycles ? t.cpu.cycle_event : e;
            if (cycles) {
                c.display = Display::Hertz;
                c.units = "Hz";
                c.average_selection = true;
                c.average_cores = true;
            } else {
                set.events.push_back({e, t.cpu.core_name, pmu_event_name(e), c.description, "",
                                      CounterClass::Delta, Display::Default});
            }
            plan.counters.push_back(std::move(c));
        }
        if (set.count > 0) plan.sets.push_back(std::move(set));
    }
}

void plan_custom(const Header& h, CounterPlan& plan) {
    std::set<std::string> used;
    for (std::size_t i = 0; i < h.series.size(); ++i) {
        const CustomSeries& s = h.series[i];
        const CustomChart* chart =
            s.chart_index < h.charts.size() ? &h.charts[s.chart_index] : nullptr;
        const std::string chart_name = chart && !chart->name.empty()
                                           ? chart->name
                                           : "Custom chart " + std::to_string(s.chart_index);
        const std::string series_name = s.name.empty() ? "Series " + std::to_string(i) : s.name;
        std::string name = "Barman_" + identifier(chart_name) + "_" + identifier(series_name);
        if (!used.insert(name).second) {
            name += "_" + std::to_string(i);
            used.insert(name);
        }
        model::CounterSpec c;
        c.counter = name;
        c.category = chart_name;
        c.title = chart_name;
        c.name = series_name;
        c.description = s.description;
        c.cls = class_of(s.cls);
        c.display = display_of(s.display);
        c.units = s.units;
        c.multiplier = std::isfinite(s.multiplier) && s.multiplier != 0.0 ? s.multiplier : 1.0;
        c.delivery = model::Delivery::Single;
        if (chart) {
            c.per_cpu = (chart->flags & 0x08) != 0;
            c.average_selection = (chart->flags & 0x01) != 0;
            c.average_cores = (chart->flags & 0x02) != 0;
            c.percentage = (chart->flags & 0x04) != 0;
            c.series_composition = composition_of(chart->series_composition);
            c.rendering_type = rendering_of(chart->rendering_type);
        }
        if (s.colour != 0xffffffffu) c.color = s.colour & 0xffffffu;
        plan.series_names.push_back(name);
        plan.counters.push_back(std::move(c));
    }
}

}  // namespace

CounterPlan plan_counters(const Header& header) {
    CounterPlan plan;
    plan.cores = static_cast<int>(header.cores.size());
    int configured = 0;
    plan_pmu(header, plan);
    for (const auto& c : header.cores) configured += c.configured() ? 1 : 0;
    if (configured == 0)
        plan.cores = static_cast<int>(std::max<std::size_t>(header.cores.size(), 1));
    plan_custom(header, plan);
    if (header.constants().max_task_infos > 0) {
        model::CounterSpec a;
        a.counter = plan.activity = "Barman_task_activity";
        a.category = "Barman";
        a.title = "Tasks";
        a.name = "Task activity";
        a.description = "The task running on each core, from the agent's task switch records";
        a.cls = CounterClass::Activity;
        a.activities = {"Running"};
        a.cores = plan.cores;
        a.per_cpu = true;
        plan.counters.push_back(std::move(a));
    }
    return plan;
}

void declare(const CounterPlan& plan, model::CounterCatalog& catalog) {
    for (const auto& set : plan.sets) catalog.add_set(set);
    for (const auto& c : plan.counters) catalog.add(c);
}

}  // namespace apcgate::collectors::barman
