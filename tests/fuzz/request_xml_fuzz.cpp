// libFuzzer target: Request XML (command 0) and the delivered-document classifier, the two
// parsers every client connection reaches first. Neither may crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xml/documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view doc(reinterpret_cast<const char*>(data), size);
    auto request = apcgate::xml::parse_request(doc);
    if (!request.ok() && request.error().message.empty()) __builtin_trap();  // errors must say why
    (void)apcgate::xml::classify_delivered(doc);
    return 0;
}
