// Counters XML: every counter name Streamline may configure on this target, i.e. each declared
// counter and each slot of each counter_set (CounterCatalog::available_names).
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"
#include "xml/xml_writer.hpp"

namespace apcgate::xml {

std::string write_counters(const model::CounterCatalog& catalog) {
    XmlWriter w;
    w.open("counters");
    for (const std::string& name : catalog.available_names())
        w.open("counter").attr("name", name).close();
    return w.finish();
}

Result<std::vector<std::string>> parse_counters(std::string_view doc) {
    return without_exceptions(kCountersDoc, [&]() -> Result<std::vector<std::string>> {
        auto loaded = load_document(doc, kCountersDoc, "counters");
        if (!loaded) return std::move(loaded).take_error();
        std::vector<std::string> names;
        for (pugi::xml_node counter : loaded->root.children("counter")) {
            const std::string_view name = counter.attribute("name").value();
            if (!name.empty()) names.emplace_back(name);  // a nameless entry names nothing
        }
        return names;
    });
}

}  // namespace apcgate::xml
