// libFuzzer: the service's parsers of untrusted bytes. Discovery datagrams arrive from anyone
// on the network; the settings file is read as root. Neither may crash, over-read or grow
// without bound, and an accepted request must be exactly Streamline's 12 bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "daemon/service/discovery_packet.hpp"
#include "daemon/service/service_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace apcgate::daemon;
    const std::span<const std::uint8_t> bytes(data, size);

    if (parse_discovery_request(bytes).ok()) {
        static constexpr std::uint8_t kRequest[] = {'D', 'S', 'T', '_', 'R', 'E',
                                                    'Q', ' ', 0,   0,   0,   0x64};
        if (size != sizeof kRequest) std::abort();
        for (std::size_t i = 0; i < size; ++i)
            if (data[i] != kRequest[i]) std::abort();
    }
    if (auto answer = parse_discovery_answer(bytes); answer.ok()) {
        if (answer->host_name.size() >= kDiscoveryHostNameSize) std::abort();
        // What we read back, we can write again identically (for names without NULs).
        const auto again =
            make_discovery_answer(answer->host_name, static_cast<std::uint16_t>(answer->tcp_port));
        if (parse_discovery_answer(again).value().host_name != answer->host_name) std::abort();
    }

    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto config = parse_service_config(text, "fuzz");
    if (config.ok()) {
        if (config->sources && config->sources->size() > size) std::abort();
        if (config->warnings.size() > size) std::abort();
    } else if (config.error().offset && *config.error().offset > size) {
        std::abort();  // an error must point inside the input
    }
    return 0;
}
