// Where each input of a conversion goes on the capture's timeline (convert, serve --source).
//
// Every ingester stamps events in its own clock domain (input_clock.hpp). Inputs of one domain
// keep their distances as they are. Inputs that relate their domain to CLOCK_MONOTONIC are
// placed on it, so an XRay log and an LTTng trace of one run line up (within the microseconds
// their clock stamps carry). An input whose clock relates to nothing the others have cannot be
// placed against them; rather than leave it decades away (an XRay TSC from boot beside a CTF
// clock from 1970: a timeline Streamline cannot show), its first event goes at the capture's
// start, and a note says so. Several inputs of one such domain stay together.
//
// The capture's zero is the earliest event of all inputs: on CLOCK_MONOTONIC when any input is
// placed there, else in the first input's domain.
#pragma once

#include <string>
#include <vector>

#include "collectors/ingest/input_clock.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::ingest {

struct TimelineInput {
    std::string label;    // for notes: the input's path
    model::Nanos origin;  // time_origin(): its earliest event, kNever when it has none
    InputClock clock;
};

struct TimelinePlacement {
    // The capture's zero: CLOCK_MONOTONIC ns when `monotonic`, else in the first input's domain.
    model::Nanos zero = 0;
    bool monotonic = false;
    // Per input, in its own domain: the value it subtracts from its ns (CaptureContext).
    std::vector<model::Nanos> input_zero;
    // Per input: how it was placed, for reports ("CLOCK_MONOTONIC", "its own clock", ...).
    std::vector<std::string> how;
    // Inputs placed without a known relation to the others, one line each.
    std::vector<std::string> notes;
};

TimelinePlacement place_on_timeline(const std::vector<TimelineInput>& inputs);

}  // namespace apcgate::collectors::ingest
