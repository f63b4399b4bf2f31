#include "collectors/ctf/decode_bound.hpp"

#include <limits>
#include <string>

#include "collectors/ctf/trace_discovery.hpp"

namespace apcgate::collectors::ctf {

DecodeBound::DecodeBound(std::vector<std::filesystem::path> traces) : traces_(std::move(traces)) {
    measure();
}

void DecodeBound::measure() {
    bytes_ = 0;
    for (const auto& t : traces_) bytes_ += ctf::stream_bytes(t);
}

std::uint64_t DecodeBound::max_events() const {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    return bytes_ > kMax / kEventsPerStreamByte ? kMax : bytes_ * kEventsPerStreamByte;
}

bool DecodeBound::exceeded(std::uint64_t events) {
    if (events <= max_events()) return false;
    measure();
    return events > max_events();
}

Error DecodeBound::error(std::uint64_t events) const {
    Error e = Error::at(
        ErrorKind::Limit,
        "libbabeltrace2 decoded " + std::to_string(events) + " events from " +
            std::to_string(bytes_) + " bytes of data streams, more than the bound of " +
            std::to_string(kEventsPerStreamByte) + " events per byte (" +
            std::to_string(max_events()) +
            " events: one per bit); a malformed trace decodes empty events forever, so reading "
            "stopped there");
    e.record = "CTF data stream";
    return e;
}

}  // namespace apcgate::collectors::ctf
