// libFuzzer target: Captured XML as read back from capture directories (inspect), plus the
// events and counters readers that share its document loader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xml/documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view doc(reinterpret_cast<const char*>(data), size);
    auto captured = apcgate::xml::parse_captured(doc);
    if (captured.ok())
        for (const auto& counter : captured->counters)
            if (counter.key < 0) __builtin_trap();  // keys are bounded to int32 >= 0
    (void)apcgate::xml::parse_events(doc);
    (void)apcgate::xml::parse_counters(doc);
    return 0;
}
