#include "xml/sloppy_xml.hpp"

#include <cstddef>

namespace apcgate::xml {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Characters that may start an element name. Anything else after '<' is not a tag, and is
// copied through for pugixml to judge.
bool starts_name(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || u >= 0x80;
}

// Copies `text` from `pos` up to and including the first `terminator` (or to the end, if
// there is none) and returns the position after what was copied.
std::size_t copy_through(std::string_view text, std::size_t pos, std::string_view terminator,
                         std::string& out) {
    const std::size_t found = text.find(terminator, pos);
    const std::size_t end =
        found == std::string_view::npos ? text.size() : found + terminator.size();
    out.append(text.substr(pos, end - pos));
    return end;
}

// <!DOCTYPE ...> may hold an internal subset in brackets, itself holding '>' characters.
std::size_t copy_declaration(std::string_view text, std::size_t pos, std::string& out) {
    int depth = 0;
    std::size_t i = pos;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[') ++depth;
        if (c == ']' && depth > 0) --depth;
        if (c == '>' && depth == 0) {
            ++i;
            break;
        }
    }
    out.append(text.substr(pos, i - pos));
    return i;
}

// An unquoted value ends at whitespace, at the tag's end, or at "/>" (so that
// `<request type=counters/>` is a self-closing tag with the value "counters"). A '/' not
// followed by '>' belongs to the value (`path=/usr/bin/ls`).
bool ends_unquoted_value(std::string_view text, std::size_t i) {
    const char c = text[i];
    if (is_space(c) || c == '>' || c == '<') return true;
    return c == '/' && i + 1 < text.size() && text[i + 1] == '>';
}

// Copies one start tag from its '<', quoting what needs quoting. Returns the position after
// the tag, or the position of a '<' that interrupts it (left for the caller to handle).
std::size_t copy_start_tag(std::string_view text, std::size_t pos, std::string& out) {
    std::size_t i = pos + 1;
    out += '<';
    while (i < text.size() && !is_space(text[i]) && text[i] != '>' && text[i] != '/' &&
           text[i] != '<')
        out += text[i++];

    while (i < text.size()) {
        const char c = text[i];
        if (c == '<') return i;
        if (c == '>') {
            out += c;
            return i + 1;
        }
        if (is_space(c) || c == '/' || c == '"' || c == '\'' || c == '=') {
            out += c;  // between attributes: whitespace, the '/' of "/>", or debris
            ++i;
            continue;
        }
        // An attribute name, then optional whitespace, then '=' and its value.
        while (i < text.size() && !is_space(text[i]) && text[i] != '=' && text[i] != '>' &&
               text[i] != '/' && text[i] != '<' && text[i] != '"' && text[i] != '\'')
            out += text[i++];
        while (i < text.size() && is_space(text[i])) out += text[i++];
        if (i >= text.size() || text[i] != '=') {
            out += "=\"\"";  // `<x flag>`: an attribute without a value reads as empty
            continue;
        }
        out += text[i++];  // '='
        while (i < text.size() && is_space(text[i])) out += text[i++];
        if (i >= text.size()) break;
        if (text[i] == '"' || text[i] == '\'') {
            const char quote[2] = {text[i], '\0'};
            out += text[i];
            i = copy_through(text, i + 1, quote, out);
            continue;
        }
        out += '"';
        for (; i < text.size() && !ends_unquoted_value(text, i); ++i) {
            if (text[i] == '"')
                out += "&quot;";  // the one character our added quotes cannot hold
            else
                out += text[i];
        }
        out += '"';
    }
    return i;
}

}  // namespace

std::string_view trim_document(std::string_view text) {
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && (is_space(text.back()) || text.back() == '\0')) text.remove_suffix(1);
    return text;
}

std::string quote_unquoted_attributes(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '<') {
            const std::size_t next = text.find('<', i);
            const std::size_t end = next == std::string_view::npos ? text.size() : next;
            out.append(text.substr(i, end - i));
            i = end;
            continue;
        }
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("<!--")) {
            i = copy_through(text, i, "-->", out);
        } else if (rest.starts_with("<![CDATA[")) {
            i = copy_through(text, i, "]]>", out);
        } else if (rest.starts_with("<?")) {
            i = copy_through(text, i, "?>", out);
        } else if (rest.starts_with("<!")) {
            i = copy_declaration(text, i, out);
        } else if (rest.starts_with("</")) {
            i = copy_through(text, i, ">", out);
        } else if (rest.size() > 1 && starts_name(rest[1])) {
            i = copy_start_tag(text, i, out);
        } else {
            out += '<';
            ++i;
        }
    }
    return out;
}

}  // namespace apcgate::xml
