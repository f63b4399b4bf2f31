// libFuzzer target: Session XML. Besides not crashing, whatever parses must survive
// write_session -> parse_session with the same settings.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xml/documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view doc(reinterpret_cast<const char*>(data), size);
    auto settings = apcgate::xml::parse_session(doc);
    if (!settings.ok()) return 0;
    auto again = apcgate::xml::parse_session(apcgate::xml::write_session(*settings));
    if (!again.ok() || again->buffer_mode != settings->buffer_mode ||
        again->sample_rate != settings->sample_rate || again->duration_s != settings->duration_s ||
        again->live_rate_ms != settings->live_rate_ms ||
        again->call_stack_unwinding != settings->call_stack_unwinding)
        __builtin_trap();
    return 0;
}
