// The host client's reading of a Perf-type capture (serve --framing perf, handshake
// "GATOR 950"): the APC Data bodies of one capture checked, in order, with the checker inspect
// uses (protocol/perf_framing/capture_check.hpp).
#pragma once

#include <string>
#include <vector>

#include "protocol/perf_framing/capture_check.hpp"
#include "xml/documents.hpp"

namespace apcgate::e2e {

struct CheckedPerfCapture {
    perf_framing::PerfCaptureTally tally;
    std::vector<std::string> errors;  // rule violations, with their offset in the stream
};

// `frames`: APC Data bodies as read_stream() returns them; offsets count from the first body.
CheckedPerfCapture check_perf_capture(const std::vector<std::string>& frames,
                                      const xml::CapturedDoc& captured);

}  // namespace apcgate::e2e
