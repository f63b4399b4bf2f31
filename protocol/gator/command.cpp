#include "protocol/gator/command.hpp"

namespace apcgate::gator {

const char* command_name(std::uint8_t code) {
    switch (code) {
        case 0:
            return "Request XML";
        case 1:
            return "Deliver XML";
        case 2:
            return "APC Start";
        case 3:
            return "APC Stop";
        case 4:
            return "Disconnect";
        case 5:
            return "Ping";
        default:
            return "unknown";
    }
}

std::array<std::uint8_t, kHeaderSize> response_header(ResponseCode code, std::uint32_t length) {
    return {static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(length),
            static_cast<std::uint8_t>(length >> 8), static_cast<std::uint8_t>(length >> 16),
            static_cast<std::uint8_t>(length >> 24)};
}

std::vector<std::uint8_t> response(ResponseCode code, std::string_view body) {
    std::vector<std::uint8_t> out;
    out.reserve(kHeaderSize + body.size());
    const auto h = response_header(code, static_cast<std::uint32_t>(body.size()));
    out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

}  // namespace apcgate::gator
