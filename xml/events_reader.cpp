// Events XML read back, for showing what a capture's counters are (inspect) and for round-trip
// tests. Reads <category>/<event> entries only (with the display attribute, which inspect checks
// against the class); option_set expansion, derived charts and the rest of the display
// attributes are not needed for that and are ignored.
#include <cstdlib>
#include <limits>

#include "xml/attribute_reader.hpp"
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"

namespace apcgate::xml {
namespace {

constexpr std::uint64_t kMaxEvent = std::numeric_limits<std::uint32_t>::max();

// The sets whose slots may count a category's events: its counter_set attribute, or its
// <counter_set> children when several sets share the category.
std::vector<std::string> sets_of(pugi::xml_node category) {
    std::vector<std::string> sets;
    if (const std::string_view attr = category.attribute("counter_set").value(); !attr.empty())
        sets.emplace_back(attr);
    for (pugi::xml_node set : category.children("counter_set"))
        if (const std::string_view name = set.attribute("name").value(); !name.empty())
            sets.emplace_back(name);
    return sets;
}

Status read_category(pugi::xml_node category, std::vector<EventInfo>& out) {
    const std::string category_name = category.attribute("name").value();
    const std::vector<std::string> sets = sets_of(category);
    for (pugi::xml_node element : category.children("event")) {
        AttributeReader reader(element, kEventsDoc);
        EventInfo info;
        info.category = category_name;
        if (auto v = reader.text("title")) info.title = std::string(*v);
        if (auto v = reader.text("name")) info.name = std::string(*v);
        info.cls = std::string(reader.text("class").value_or("delta"));
        if (auto v = reader.text("units")) info.units = std::string(*v);
        if (auto v = reader.text("display")) info.display = std::string(*v);
        if (auto v = reader.text("multiplier")) {
            // Streamline shows value x multiplier; a multiplier that is no number is ignored
            // rather than failing the whole document.
            char* end = nullptr;
            const std::string text(*v);
            const double m = std::strtod(text.c_str(), &end);
            if (end != text.c_str() && *end == '\0' && m > 0) info.multiplier = m;
        }
        if (auto v = reader.hex("event", kMaxEvent)) info.event = static_cast<std::uint32_t>(*v);
        if (!reader.ok())
            return std::move(reader).take_error().while_("reading category '" + category_name +
                                                         "'");

        if (auto counter = reader.text("counter"); counter && !counter->empty()) {
            info.counter = std::string(*counter);
            out.push_back(std::move(info));
        } else if (info.event) {
            // A set's event: one entry per set that may count it.
            for (const std::string& set : sets) {
                info.counter = set;
                out.push_back(info);
            }
        }  // neither counter nor event: the seed says that cannot be; nothing to list
    }
    return {};
}

}  // namespace

Result<std::vector<EventInfo>> parse_events(std::string_view doc) {
    return without_exceptions(kEventsDoc, [&]() -> Result<std::vector<EventInfo>> {
        auto loaded = load_document(doc, kEventsDoc, "events");
        if (!loaded) return std::move(loaded).take_error();
        std::vector<EventInfo> events;
        for (pugi::xml_node category : loaded->root.children("category"))
            if (auto s = read_category(category, events); !s) return std::move(s).take_error();
        return events;
    });
}

}  // namespace apcgate::xml
