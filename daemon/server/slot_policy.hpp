// Which connection gives up its slot when all --max-connections are taken and another client
// connects. Refusing the newcomer would let a handful of sockets that never finish the handshake
// (or finish it and then sit idle) keep Streamline out for as long as they are held; so the
// newcomer gets a slot and the connection least likely to be doing anything useful loses it:
//   1. one that is already closing (its last bytes queued for a client that does not take them);
//   2. else the oldest one that has not finished the handshake;
//   3. else the one idle longest (no complete command) that has no capture.
// A connection with a capture is never chosen: captures end only when asked to.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>

namespace apcgate::daemon {

struct SlotState {
    bool closing = false;
    bool handshake_done = false;
    bool capture =
        false;  // a capture runs on it, or it is sending a finished capture's last frames
    // Accepted at (no handshake yet), else its last complete command (or the handshake's end).
    std::chrono::steady_clock::time_point since{};
};

// The index of the slot to free, or nullopt when every one holds a capture.
std::optional<std::size_t> slot_to_free(std::span<const SlotState> slots);

}  // namespace apcgate::daemon
