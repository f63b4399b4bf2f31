// Loading one received document: the size bound, the sloppy-XML pre-pass, pugixml, and the
// check of the root element, with errors that name the document. Every parser starts here.
#pragma once

#include <exception>
#include <memory>
#include <pugixml.hpp>
#include <string_view>

#include "protocol/wire/result.hpp"

namespace apcgate::xml {

// Names the documents in errors (Error::input).
inline constexpr std::string_view kRequestDoc = "request XML";
inline constexpr std::string_view kSessionDoc = "session XML";
inline constexpr std::string_view kConfigurationDoc = "configuration XML";
inline constexpr std::string_view kEventsDoc = "events XML";
inline constexpr std::string_view kCountersDoc = "counters XML";
inline constexpr std::string_view kCapturedDoc = "captured XML";
inline constexpr std::string_view kDeliveredDoc = "delivered XML";

struct LoadedDocument {
    // Held by pointer: pugi nodes point into the document, so it must not move.
    std::unique_ptr<pugi::xml_document> doc;
    pugi::xml_node root;  // the document element
};

// Parses `text` as document `name`. Errors: over kMaxDocumentBytes, empty, a NUL byte before
// the trailing padding, not well-formed, no root element, or (when `expected_root` is not
// empty) a root element of another name.
Result<LoadedDocument> load_document(std::string_view text, std::string_view name,
                                     std::string_view expected_root);

// Runs a parser body and turns any exception (in practice std::bad_alloc) into an Error, so the
// public parsers keep their promise never to throw.
template <typename F>
auto without_exceptions(std::string_view name, F&& body) -> decltype(body()) {
    try {
        return body();
    } catch (const std::exception& e) {
        return Error::at(ErrorKind::Internal, std::string("internal error: ") + e.what())
            .in_input(std::string(name));
    } catch (...) {
        return Error::at(ErrorKind::Internal, "internal error").in_input(std::string(name));
    }
}

}  // namespace apcgate::xml
