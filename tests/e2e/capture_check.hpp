// Decoding and checking what a capture sent, with the same decoder and rule checker `inspect`
// uses: every frame must decode and the stream must keep the seed's frame rules.
#pragma once

#include <string>
#include <vector>

#include "host_client.hpp"
#include "protocol/apc/decoder.hpp"
#include "protocol/apc/frame_rules.hpp"
#include "xml/documents.hpp"

namespace apcgate::e2e {

struct StreamResult {
    std::vector<std::string> frames;  // APC data bodies, in order
    int acks = 0;                     // ACKs that arrived among the frames (pings)
    bool end_of_sequence = false;
    std::vector<Response> other;  // anything else
};

// Reads responses until the zero-length APC Data (or `timeout` passes / the socket closes).
// If `ping_every` is set, sends a Ping each time that many frames have arrived.
StreamResult read_stream(HostClient& c, std::chrono::milliseconds timeout, int ping_every = 0,
                         int* pings_sent = nullptr);

// Reads until `count` frames have arrived (or the end of the sequence, the socket closing, or
// `give_up` passing): how a test waits for live data without betting on how fast a loaded
// machine sends it.
StreamResult read_frames(HostClient& c, std::size_t count,
                         std::chrono::milliseconds give_up = std::chrono::seconds(15));

struct CheckedCapture {
    std::vector<apc::DecodedFrame> frames;
    std::vector<std::string> errors;  // decode errors and rule violations
    std::map<model::CounterKey, std::size_t> values_per_key;
    std::size_t thread_names = 0;
    std::size_t proc_comms = 0;
    std::size_t summaries = 0;
};

CheckedCapture check_capture(const std::vector<std::string>& bodies,
                             const xml::CapturedDoc& captured);

}  // namespace apcgate::e2e
