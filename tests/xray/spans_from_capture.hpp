// What Streamline will show per thread, read back from a written capture (or from a live
// stream's frames): each span annotation as "open <channel> <text>" or "close <channel>", where
// the channel is its name ("depth 2", "events"); and the same shape derived from llvm-xray's
// decode, for comparison.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "llvm_yaml.hpp"
#include "protocol/apc/decoder.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::xray_test {

using Spans = std::map<std::int32_t, std::vector<std::string>>;  // by tid

struct CaptureContent {
    std::vector<model::Event> events;
    std::string error;
};

// Decodes `dir`/0000000000 and rebuilds the model events.
CaptureContent read_capture(const std::string& dir);
CaptureContent rebuild(const std::vector<apc::DecodedFrame>& frames);

Spans spans_of(const std::vector<model::Event>& events);

// The spans a perfectly nested llvm-xray decode implies (names from the YAML's `function`
// when symbolized, "fn#ID" otherwise); false when some exit does not match its entry.
bool expected_spans(const PerThread& llvm, bool symbolized, Spans& out);

}  // namespace apcgate::xray_test
