// The annotation connections a capture carries, put back together from its External data and
// disconnect events (from the source directly, or rebuilt from decoded APC frames).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "annotate_client.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::annotate_test {

// One connection: its id and every byte, in order.
struct CarriedStream {
    std::int32_t id = 0;
    Bytes bytes;
    bool disconnected = false;
};

// Walks the events in order; a stream ends at its disconnect, and an id seen again afterwards
// starts a new stream. A disconnect without data, or empty data, goes to `problems`; so do
// timestamps going backwards when `check_order`.
std::vector<CarriedStream> carried_streams(const std::vector<model::Event>& events,
                                           std::vector<std::string>& problems,
                                           bool check_order = true);
// The tid of a stream's handshake (bytes 11..14), or 0.
std::uint32_t handshake_tid(const Bytes& stream);

}  // namespace apcgate::annotate_test
