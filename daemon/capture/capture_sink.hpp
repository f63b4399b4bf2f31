// Where a capture's frames go: the live TCP session or a local .apc directory. The encoder hands
// over frame bodies; a sink adds its transport's length header. flush() marks the end of one
// live-rate batch (the directory sink writes then), finish() the end of the capture.
#pragma once

#include <cstdint>
#include <functional>

#include "protocol/apc/encoder.hpp"

namespace apcgate::daemon {

class CaptureSink : public apc::FrameSink {
  public:
    virtual void flush() {}
    virtual void finish() {}
    // Bytes handed over so far (frame bodies and headers); bounds buffered capture modes.
    [[nodiscard]] virtual std::uint64_t bytes_written() const = 0;
    // Bytes handed over that the transport has not taken yet (a live client's unsent data). The
    // live driver feeds recorded sources only while this is small, so a client that reads
    // slowly slows the capture down instead of growing the daemon's memory.
    [[nodiscard]] virtual std::uint64_t unsent_bytes() const { return 0; }
    // Calls `ready` once unsent_bytes() is `low` or less: later, from the transport's executor
    // (never from inside this call), or never when the transport closes first.
    // NOLINTNEXTLINE(performance-unnecessary-value-param): the transports' overrides keep `ready`
    virtual void when_drained(std::uint64_t low, std::function<void()> ready) {
        (void)low;
        (void)ready;
    }
};

}  // namespace apcgate::daemon
