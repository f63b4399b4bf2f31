#include "xml/xml_document.hpp"

#include <string>

#include "xml/attribute_values.hpp"
#include "xml/documents.hpp"
#include "xml/sloppy_xml.hpp"

namespace apcgate::xml {
namespace {

Error document_error(std::string_view name, ErrorKind kind, std::string message) {
    return Error::at(kind, std::move(message)).in_input(std::string(name));
}

// Some clients send only a start tag: `<request type=counters >`, or the seed's own request
// example cut before its end tag. An unclosed root with no child elements can only mean an empty
// element, so pugixml's partial tree is taken as the document. A root that has children and is
// cut short is still an error: it may be a truncated configuration.
bool is_lone_start_tag(const pugi::xml_parse_result& parsed, const pugi::xml_document& doc,
                       std::string_view text) {
    // pugixml reports a root left open at the end of the text at the last byte; an end tag of
    // the wrong name would be a mismatch too, so there must be no end tag at all.
    if (parsed.status != pugi::status_end_element_mismatch) return false;
    if (parsed.offset < 0 || static_cast<std::size_t>(parsed.offset) + 1 < text.size())
        return false;
    if (text.find("</") != std::string_view::npos) return false;
    const pugi::xml_node root = doc.document_element();
    return root &&
           !root.find_child([](pugi::xml_node n) { return n.type() == pugi::node_element; });
}

}  // namespace

Result<LoadedDocument> load_document(std::string_view text, std::string_view name,
                                     std::string_view expected_root) {
    // Bound the work before looking at the bytes: the command reader already caps bodies, but
    // documents also come from files.
    if (text.size() > kMaxDocumentBytes)
        return document_error(name, ErrorKind::Limit,
                              "document of " + std::to_string(text.size()) +
                                  " bytes exceeds the limit of " +
                                  std::to_string(kMaxDocumentBytes) + " bytes");
    const std::string_view trimmed = trim_document(text);
    if (trimmed.empty()) return document_error(name, ErrorKind::Malformed, "empty document");
    // pugixml would stop at an embedded NUL and parse a truncated document without complaint;
    // NUL padding at the end was trimmed above, so one here is garbage.
    if (const auto nul = trimmed.find('\0'); nul != std::string_view::npos) {
        Error e = document_error(name, ErrorKind::Malformed, "NUL byte inside the document");
        e.offset = static_cast<std::uint64_t>(
            nul + static_cast<std::size_t>(trimmed.data() - text.data()));
        return e;
    }

    const std::string normalised = quote_unquoted_attributes(trimmed);
    auto doc = std::make_unique<pugi::xml_document>();
    // encoding_utf8: the seed's documents declare US-ASCII or UTF-8, both read as UTF-8; never
    // let a stray BOM-like prefix switch pugixml to UTF-16. No DOCTYPE or entity expansion.
    const pugi::xml_parse_result parsed = doc->load_buffer(
        normalised.data(), normalised.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed && !is_lone_start_tag(parsed, *doc, normalised))
        return document_error(name, ErrorKind::Malformed,
                              std::string("not well-formed XML: ") + parsed.description() +
                                  " near byte " + std::to_string(parsed.offset) +
                                  " of the normalised text");

    pugi::xml_node root = doc->document_element();
    if (!root) return document_error(name, ErrorKind::Malformed, "no root element");
    if (!expected_root.empty() && root.name() != expected_root) {
        Error e = document_error(name, ErrorKind::Malformed,
                                 "root element is <" + printable_excerpt(root.name()) +
                                     ">, expected <" + std::string(expected_root) + ">");
        e.record = std::string(expected_root);
        return e;
    }
    return LoadedDocument{std::move(doc), root};
}

}  // namespace apcgate::xml
