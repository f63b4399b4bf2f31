// How many events the decoding of one CTF input may yield before it is stopped as endless.
//
// An event record takes up some bits of its packet (CTF 1.8 section 6: header, contexts and
// payload, laid out one after the other), and libbabeltrace2 decodes the next one where the last
// ended. An event class whose records are empty (no header, no context, no payload: a malformed
// or mutated metadata can say so) therefore yields the same empty event at the same place
// forever: libbabeltrace2 2.0.4 never reaches the packet's end and makes progress all the while,
// so the no-progress watchdog (ctf_worker.hpp) never fires. A finite decode cannot yield more
// events than its data streams have bits, so kEventsPerStreamByte = 8 is a bound no real trace
// can reach, only an endless one: the densest trace of the test corpus (babeltrace's
// valid-events-then-invalid-events) has 2 events in 3 bytes, LTTng's smallest event (a compact
// header and no payload) is 4 bytes, and the largest corpus trace (succeed1) has an event per
// 21 bytes. The bound counts from the stream files' sizes, not the time taken, so a slow
// machine never stops a good trace.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::uint64_t kEventsPerStreamByte = 8;

class DecodeBound {
  public:
    // Over the data stream files of the trace directories `traces` (trace_discovery.hpp).
    explicit DecodeBound(std::vector<std::filesystem::path> traces);

    // Whether `events` decoded so far are more than the streams can hold. Over the bound, the
    // stream files are measured again first: a trace still being written may have grown.
    bool exceeded(std::uint64_t events);
    // Why decoding was stopped at `events`: the count, the bound and the input's size.
    [[nodiscard]] Error error(std::uint64_t events) const;

    [[nodiscard]] std::uint64_t stream_bytes() const { return bytes_; }
    [[nodiscard]] std::uint64_t max_events() const;

  private:
    void measure();

    std::vector<std::filesystem::path> traces_;
    std::uint64_t bytes_ = 0;
};

}  // namespace apcgate::collectors::ctf
