// Request XML (command 0) and telling delivered documents (command 1) apart.
#include "xml/attribute_reader.hpp"
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"

namespace apcgate::xml {

Result<RequestType> parse_request(std::string_view doc) {
    return without_exceptions(kRequestDoc, [&]() -> Result<RequestType> {
        auto loaded = load_document(doc, kRequestDoc, "request");
        if (!loaded) return std::move(loaded).take_error();

        AttributeReader reader(loaded->root, kRequestDoc);
        if (!reader.required_text("type")) return std::move(reader).take_error();
        const auto type = reader.choice<RequestType>("type", "request type",
                                                     {{"events", RequestType::Events},
                                                      {"configuration", RequestType::Configuration},
                                                      {"counters", RequestType::Counters},
                                                      {"captured", RequestType::Captured},
                                                      {"defaults", RequestType::Defaults}});
        if (!type) return std::move(reader).take_error();
        return *type;
    });
}

DeliveredKind classify_delivered(std::string_view doc) {
    try {
        // Anything that does not load is "Other": the daemon NAKs it like an unknown document.
        auto loaded = load_document(doc, kDeliveredDoc, "");
        if (!loaded) return DeliveredKind::Other;
        const std::string_view root = loaded->root.name();
        if (root == "session") return DeliveredKind::Session;
        if (root == "configurations") return DeliveredKind::Configuration;
        return DeliveredKind::Other;
    } catch (...) {
        return DeliveredKind::Other;
    }
}

}  // namespace apcgate::xml
