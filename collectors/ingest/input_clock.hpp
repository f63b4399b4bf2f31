// What an input's timestamps are measured on. Each ingester converts its clock to ns in its own
// domain (ingest_source.hpp); inputs of one run written by different tools (an XRay log and an
// LTTng trace of the same program) share a timeline only through a clock both can be related
// to. The one such clock producers record is the writing machine's CLOCK_MONOTONIC: XRay's FDR
// runtime stamps every buffer with it (WallClockTime, beside the buffer's first TSC), and
// LTTng's trace clock is CLOCK_MONOTONIC with the realtime offset in its clock class.
#pragma once

#include <optional>
#include <string>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ingest {

struct InputClock {
    // Inputs naming the same domain share a timeline as they are (several XRay logs of one
    // machine: one TSC). Empty: a domain of this input alone.
    std::string domain;
    // Added to the input's ns, gives the writing machine's CLOCK_MONOTONIC ns; unset when the
    // input does not say how its clock relates to it.
    std::optional<model::Nanos> to_monotonic;
    // For messages: what the clock is ("XRay TSC", "CTF clock 'monotonic'").
    std::string description;
};

}  // namespace apcgate::collectors::ingest
