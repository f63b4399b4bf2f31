// Events XML from the counter catalog: the list Streamline's Counter Configuration dialog shows.
//
// Layout (the seed's example is the model): a top-level <counter_set> per set that has its
// category to itself, then one <category> per category name in first-appearance order (the sets'
// categories first, then the counters'). A category holding one set names it in its counter_set
// attribute; a category shared by several sets lists them as <counter_set> children, the seed's
// form for that case. Fixed counters come first in their category, then the sets' events.
// Attributes equal to their documented default are omitted.
#include <algorithm>

#include "xml/documents.hpp"
#include "xml/xml_writer.hpp"

namespace apcgate::xml {
namespace {

using model::CounterClass;
using model::CounterSetSpec;
using model::CounterSpec;
using model::Display;

struct Category {
    std::string name;
    std::vector<const CounterSetSpec*> sets;
    std::vector<const CounterSpec*> counters;
};

// Every category needs a name in the dialog; a counter declared without one goes here.
constexpr std::string_view kUncategorised = "Other";

Category& category_named(std::vector<Category>& categories, std::string_view name) {
    if (name.empty()) name = kUncategorised;
    auto it = std::find_if(categories.begin(), categories.end(),
                           [&](const Category& c) { return c.name == name; });
    if (it != categories.end()) return *it;
    categories.push_back(Category{std::string(name), {}, {}});
    return categories.back();
}

std::vector<Category> group_by_category(const model::CounterCatalog& catalog) {
    std::vector<Category> categories;
    for (const CounterSetSpec& set : catalog.sets())
        category_named(categories, set.category.empty() ? set.name : set.category)
            .sets.push_back(&set);
    for (const CounterSpec& counter : catalog.counters())
        category_named(categories, counter.category).counters.push_back(&counter);
    return categories;
}

void write_counter_set(XmlWriter& w, const CounterSetSpec& set) {
    w.open("counter_set")
        .attr("name", set.name)
        .attr_int("count", set.count)
        .attr_if_set("title", set.title)
        .attr_if_set("description", set.description)
        .close();
}

void write_class_and_display(XmlWriter& w, CounterClass cls, Display display) {
    if (cls != CounterClass::Delta) w.attr("class", model::to_string(cls));
    if (display != Display::Default) w.attr("display", model::to_string(display));
}

// One fixed counter. per_cpu and supports_event_based_sampling default to the category's values,
// so they are written only where the counter differs from its category.
void write_counter_event(XmlWriter& w, const CounterSpec& c, bool category_per_cpu,
                         bool category_ebs) {
    w.open("event").attr("counter", c.counter);
    if (c.event) w.attr_hex("event", *c.event);
    w.attr_if_set("title", c.title).attr_if_set("name", c.name);
    write_class_and_display(w, c.cls, c.display);
    w.attr_if_set("units", c.units);
    if (c.multiplier != 1.0) w.attr_double("multiplier", c.multiplier);
    if (c.per_cpu != category_per_cpu) w.attr_bool("per_cpu", c.per_cpu);
    if (c.supports_event_based_sampling != category_ebs)
        w.attr_bool("supports_event_based_sampling", c.supports_event_based_sampling);
    w.attr_if_set("series_composition", c.series_composition)
        .attr_if_set("rendering_type", c.rendering_type);
    if (c.average_selection) w.attr_bool("average_selection", true);
    if (c.average_cores) w.attr_bool("average_cores", true);
    if (c.percentage) w.attr_bool("percentage", true);
    if (c.color) w.attr_hex("color", *c.color, 8);
    for (std::size_t i = 0; i < c.activities.size(); ++i)
        w.attr("activity" + std::to_string(i + 1), c.activities[i]);
    for (std::size_t i = 0; i < c.activity_colors.size() && i < c.activities.size(); ++i)
        w.attr_hex("activity_color" + std::to_string(i + 1), c.activity_colors[i], 8);
    if (c.cores > 0) w.attr_int("cores", c.cores);
    w.attr_if_set("description", c.description).close();
}

void write_set_events(XmlWriter& w, const std::vector<const CounterSetSpec*>& sets) {
    std::vector<std::uint32_t> written;  // sets sharing a category share their event list
    for (const CounterSetSpec* set : sets) {
        for (const CounterSetSpec::Event& e : set->events) {
            if (std::find(written.begin(), written.end(), e.event) != written.end()) continue;
            written.push_back(e.event);
            w.open("event").attr_hex("event", e.event);
            w.attr_if_set("title", e.title).attr_if_set("name", e.name);
            write_class_and_display(w, e.cls, e.display);
            w.attr_if_set("units", e.units).attr_if_set("description", e.description).close();
        }
    }
}

void write_category(XmlWriter& w, const Category& category) {
    const CounterSetSpec* first_set = category.sets.empty() ? nullptr : category.sets.front();
    const bool per_cpu = first_set != nullptr && first_set->per_cpu;
    const bool ebs = first_set != nullptr && first_set->supports_event_based_sampling;

    w.open("category").attr("name", category.name);
    if (category.sets.size() == 1) w.attr("counter_set", first_set->name);
    if (per_cpu) w.attr_bool("per_cpu", true);
    if (ebs) w.attr_bool("supports_event_based_sampling", true);
    if (category.sets.size() > 1)
        for (const CounterSetSpec* set : category.sets) write_counter_set(w, *set);
    for (const CounterSpec* counter : category.counters)
        write_counter_event(w, *counter, per_cpu, ebs);
    write_set_events(w, category.sets);
    w.close();
}

}  // namespace

std::string write_events(const model::CounterCatalog& catalog) {
    const std::vector<Category> categories = group_by_category(catalog);
    XmlWriter w;
    w.open("events");
    for (const Category& category : categories)
        if (category.sets.size() == 1) write_counter_set(w, *category.sets.front());
    for (const Category& category : categories) write_category(w, category);
    return w.finish();
}

}  // namespace apcgate::xml
