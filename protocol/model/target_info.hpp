// What captured.xml says about the target and the capture, filled by the daemon and the sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace apcgate::model {

struct TargetInfo {
    std::string name;  // host name, or the name an ingested trace gives
    int cores = 1;
    std::uint32_t cpuid = 0;  // cpuid of core 0 (e.g. 0x41d03), 0 when unknown
    int sample_rate_hz = 0;
    bool supports_live = true;
};

struct CaptureInfo {
    TargetInfo target;
    std::optional<std::int64_t> created;  // seconds since the epoch, for local captures
    bool local_capture = false;
    int protocol = 680;  // the version we answer in the handshake
};

}  // namespace apcgate::model
