// libFuzzer target: Configuration XML. Whatever parses must be written back as a document that
// parses again: the writer must escape and sanitise anything the parser let through.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xml/documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view doc(reinterpret_cast<const char*>(data), size);
    auto config = apcgate::xml::parse_configuration(doc);
    if (!config.ok()) return 0;
    auto again = apcgate::xml::parse_configuration(apcgate::xml::write_configuration(*config));
    // Sanitising may empty a name made only of control characters, which is then skipped.
    if (!again.ok() || again->counters.size() > config->counters.size()) __builtin_trap();
    return 0;
}
