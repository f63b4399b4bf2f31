// Configuration XML: the counters Streamline enables for a capture.
//
// Revisions: the seed documents revision 2 and gatord wants 3; both carry the same
// <configuration counter event count cores/> entries, so both are accepted (a missing revision
// reads as 3) and anything else is refused, since its entries might mean something else.
// An entry without a counter name cannot be matched to anything we collect; like gatord we skip
// it and keep reading, rather than refuse the whole configuration.
#include <limits>

#include "xml/attribute_reader.hpp"
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"
#include "xml/xml_writer.hpp"

namespace apcgate::xml {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t kMaxEvent = std::numeric_limits<std::uint32_t>::max();

Result<int> read_revision(pugi::xml_node root) {
    AttributeReader reader(root, kConfigurationDoc);
    const auto revision = reader.integer("revision", std::numeric_limits<int>::min(), kMaxInt);
    if (!reader.ok()) return std::move(reader).take_error();
    if (!revision) return 3;
    if (*revision != 2 && *revision != 3) {
        reader.fail(ErrorKind::Unsupported, "revision",
                    "configuration revision " + std::to_string(*revision) +
                        " is not supported (expected 2 or 3)");
        return std::move(reader).take_error();
    }
    return static_cast<int>(*revision);
}

// One entry; nullopt for an entry to skip (no counter name), an error for a malformed value.
Result<std::optional<model::ConfiguredCounter>> read_entry(pugi::xml_node element) {
    AttributeReader reader(element, kConfigurationDoc);
    model::ConfiguredCounter entry;
    const auto counter = reader.text("counter");
    if (!counter || counter->empty()) return std::optional<model::ConfiguredCounter>();
    entry.counter = std::string(*counter);
    if (auto v = reader.hex("event", kMaxEvent)) entry.event = static_cast<std::uint32_t>(*v);
    if (auto v = reader.integer("count", 0, kMaxInt64)) entry.count = *v;
    if (auto v = reader.integer("cores", 0, kMaxInt)) entry.cores = static_cast<int>(*v);
    if (!reader.ok()) {
        return std::move(reader).take_error().while_("reading the entry for counter '" +
                                                     entry.counter + "'");
    }
    return std::optional<model::ConfiguredCounter>(std::move(entry));
}

}  // namespace

Result<model::Configuration> parse_configuration(std::string_view doc) {
    return without_exceptions(kConfigurationDoc, [&]() -> Result<model::Configuration> {
        auto loaded = load_document(doc, kConfigurationDoc, "configurations");
        if (!loaded) return std::move(loaded).take_error();

        model::Configuration config;
        auto revision = read_revision(loaded->root);
        if (!revision) return std::move(revision).take_error();
        config.revision = *revision;

        for (pugi::xml_node element : loaded->root.children("configuration")) {
            auto entry = read_entry(element);
            if (!entry) return std::move(entry).take_error();
            if (*entry) config.counters.push_back(std::move(**entry));
        }
        return config;
    });
}

std::string write_configuration(const model::Configuration& config) {
    XmlWriter w;
    w.open("configurations").attr("revision", "3");  // what gatord wants, whatever we read
    for (const auto& entry : config.counters) {
        w.open("configuration").attr("counter", entry.counter);
        if (entry.event) w.attr_hex("event", *entry.event);
        if (entry.count) w.attr_int("count", *entry.count);
        if (entry.cores) w.attr_int("cores", *entry.cores);
        w.close();
    }
    return w.finish();
}

}  // namespace apcgate::xml
