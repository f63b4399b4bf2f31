// Where a capture's frames go: the live TCP session or a local .apc directory. The encoder hands
// over frame bodies; a sink adds its transport's length header. flush() marks the end of one
// live-rate batch (the directory sink writes then), finish() the end of the capture.
#pragma once

#include <cstdint>

#include "protocol/apc/encoder.hpp"

namespace apcgate::daemon {

class CaptureSink : public apc::FrameSink {
public:
    virtual void flush() {}
    virtual void finish() {}
    // Bytes handed over so far (frame bodies and headers); bounds buffered capture modes.
    [[nodiscard]] virtual std::uint64_t bytes_written() const = 0;
};

}  // namespace apcgate::daemon
