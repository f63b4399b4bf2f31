#include "protocol/apc/annotate_scan.hpp"

namespace apcgate::apc {

std::optional<FrameType> frame_type_of(std::span<const std::uint8_t> body) {
    wire::ByteReader r(body, wire::Endian::Little);
    const std::int32_t code = r.packed32("frame code");
    if (!r.ok()) return std::nullopt;
    return static_cast<FrameType>(code);
}

}  // namespace apcgate::apc
